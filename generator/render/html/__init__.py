"""render/html."""

"""render/pdf."""

"""Pure page geometry in PDF points: testable without reportlab or a PDF."""

"""import-check: import recorded requests and compare them with the reference's render."""

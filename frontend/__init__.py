"""Frontend."""

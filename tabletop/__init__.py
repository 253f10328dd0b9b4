"""The live-table kit: event-sourced tables that every game at the table uses (docs/architecture.md)."""

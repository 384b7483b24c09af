"""What people read: the dashboard's view models, the report, charts and the one renderer of
tables with escaping."""

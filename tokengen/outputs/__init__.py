"""What tokengen writes: build options, sheets, backs, exports, cut files, previews, batches, watch."""

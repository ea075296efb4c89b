"""Files in and out: atomic writes, the guard on every input and output, the worker pool."""

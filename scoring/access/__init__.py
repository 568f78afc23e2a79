"""The access wing: who may do what (per-object permissions) and idempotent API requests."""

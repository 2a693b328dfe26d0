//! The `Engine` facade (filled in a later step).

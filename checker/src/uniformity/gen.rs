//! Random functions for the uniformity oracle (placeholder).

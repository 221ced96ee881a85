//! The uniformity campaign (placeholder).

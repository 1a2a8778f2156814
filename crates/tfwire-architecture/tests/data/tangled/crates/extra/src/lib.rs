//! Not in the table.

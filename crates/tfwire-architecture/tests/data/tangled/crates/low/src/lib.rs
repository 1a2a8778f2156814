pub mod a;
mod x;
mod y;

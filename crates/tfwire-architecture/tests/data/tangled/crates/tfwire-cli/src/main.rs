fn main() {
    println!("four lines of code");
}

#[cfg(test)]
mod tests {
    #[test]
    fn t() {}
}

#[cfg(all(test, unix))]
fn unix_only() {}

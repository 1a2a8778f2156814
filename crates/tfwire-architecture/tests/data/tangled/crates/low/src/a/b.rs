pub fn thing() -> u8 {
    super::shared() - 1
}

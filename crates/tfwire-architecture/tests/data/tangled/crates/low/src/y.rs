pub(crate) fn h() {
    super::x::g();
    let _ = flate2::Compression::default();
}

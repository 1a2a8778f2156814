pub(crate) fn g() {}
pub(crate) fn f() {
    crate::y::h();
}

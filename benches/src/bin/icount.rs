//! `icount`: one call of one hot path, for callgrind to count (see `benches/icount.sh`).
//!
//! ```text
//! icount list          # the measurements, one a line
//! icount run NAME      # answer checked, one warm-up call, then one call inside
//!                      # tfwire_benches::icount::icount_measured_call
//! valgrind --tool=callgrind --collect-atstart=no \
//!     --toggle-collect='*icount_measured_call*' ./target/release/icount run NAME
//! ```

use std::process::ExitCode;
use tfwire_benches::icount;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["list"] => {
            for name in icount::names() {
                println!("{name}");
            }
            ExitCode::SUCCESS
        }
        ["run", name] => match icount::run(name) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("icount: {e}");
                ExitCode::from(2)
            }
        },
        _ => {
            eprintln!("usage: icount list | icount run NAME");
            ExitCode::from(2)
        }
    }
}

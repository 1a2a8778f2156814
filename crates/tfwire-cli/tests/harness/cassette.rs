//! `tfwire cassette redact IN OUT`: a cassette recorded in process (the tap tests' fake
//! provider behind the proxy, a `Recorder` observing) and redacted by the binary.

use bytes::Bytes;
use std::process::Command;
use tfwire_plugin::cassette::{Cassette, Recorder};

const SECRET: &str = "cassette-cli-secret";

#[test]
fn redact_a_recorded_cassette() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    // {"name": "a", "password": SECRET}
    let mut state = b"\x82\xa4name\xa1a\xa8password".to_vec();
    state.push(0xa0 | u8::try_from(SECRET.len()).unwrap());
    state.extend_from_slice(SECRET.as_bytes());
    let state = Bytes::from(state);
    let session = runtime.block_on(async {
        let (channel, recorder) = tfwire_tap_testkit::through_proxy(Recorder::new(6)).await;
        let planned = tfwire_tap_testkit::schema_then_plan(channel, state.clone(), true).await;
        assert_eq!(planned, Some(state));
        recorder.finish()
    });
    let dir = std::env::temp_dir().join(format!("tfwire-cassette-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (input, output) = (dir.join("in.jsonl"), dir.join("out.jsonl"));
    session.append_to(&input).unwrap();
    session.append_to(&input).unwrap();
    // The secret is in the recorded messages.
    let recorded = Cassette::read(&std::fs::read(&input).unwrap()).unwrap();
    assert_eq!(recorded.sessions.len(), 2);
    assert!(recorded.sessions[0].calls.iter().any(|c| {
        c.requests
            .iter()
            .any(|m| m.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()))
    }));

    let run = |args: &[&std::ffi::OsStr]| {
        Command::new(env!("CARGO_BIN_EXE_tfwire"))
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&[
        "cassette".as_ref(),
        "redact".as_ref(),
        "--mask".as_ref(),
        "name".as_ref(),
        input.as_os_str(),
        output.as_os_str(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let file = std::fs::read(&output).unwrap();
    let c = Cassette::read(&file).unwrap();
    assert_eq!(c.sessions.len(), 2);
    for s in &c.sessions {
        assert!(s.redacted);
        assert!(s.masks.iter().any(|m| m == "name"));
        let plan = s
            .calls
            .iter()
            .find(|c| c.method.ends_with("/PlanResourceChange"))
            .unwrap();
        let want = b"\x82\xa4name\xac(redacted-1)\xa8password\xac(redacted-2)";
        for m in plan.requests.iter().chain(&plan.responses) {
            assert!(m.windows(want.len()).any(|w| w == want), "{m:?}");
            assert!(!m.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()));
        }
    }

    // Not a cassette: exit 1 with the line and byte, nothing written.
    std::fs::write(&input, b"{\"tfwire_cassette\":1}\n").unwrap();
    let _ = std::fs::remove_file(&output);
    let out = run(&[
        "cassette".as_ref(),
        "redact".as_ref(),
        input.as_os_str(),
        output.as_os_str(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cassette line 1 (byte 0): the member \"protocol\" is missing"),
        "{stderr}"
    );
    assert!(!output.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

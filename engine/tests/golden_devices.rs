//! `torch.device` parsing, printing and equality against PyTorch 2.15's own answers
//! (`tests/golden/devices.json`, made by `tests/golden/generate.py`).

use serde_json::Value;
use tolab_engine::{Device, Error};

fn golden() -> Vec<Value> {
    serde_json::from_str(include_str!("../../tests/golden/devices.json")).unwrap()
}

fn construct(args: &[Value]) -> Result<Device, Error> {
    let text = args[0].as_str().unwrap();
    match args.get(1) {
        None => Device::parse(text),
        Some(index) => Device::with_index(text, index.as_i64()),
    }
}

#[test]
fn every_device_string_parses_or_fails_exactly_as_in_pytorch() {
    let cases: Vec<Value> = golden()
        .into_iter()
        .filter(|c| c.get("args").is_some())
        .collect();
    assert!(cases.len() > 40);
    for case in cases {
        let args = case["args"].as_array().unwrap();
        let got = construct(args);
        match (&case.get("ok"), got) {
            (Some(ok), Ok(device)) => {
                assert_eq!(device.kind.name(), ok["type"], "{args:?}");
                assert_eq!(
                    device.index.map(i64::from),
                    ok["index"].as_i64(),
                    "{args:?}"
                );
                assert_eq!(device.to_string(), ok["str"], "{args:?}");
                assert_eq!(device.repr(), ok["repr"], "{args:?}");
            }
            (None, Err(error)) => {
                assert_eq!(error.python_type().name(), case["error"], "{args:?}");
                assert_eq!(error.to_string(), case["message"], "{args:?}");
            }
            (_, got) => panic!("{args:?}: expected {case}, got {got:?}"),
        }
    }
}

#[test]
fn device_equality_compares_the_index_too() {
    for case in golden().into_iter().filter(|c| c.get("equal").is_some()) {
        let pair = case["equal"].as_array().unwrap();
        let a = Device::parse(pair[0].as_str().unwrap()).unwrap();
        let b = Device::parse(pair[1].as_str().unwrap()).unwrap();
        assert_eq!(Value::Bool(a == b), case["ok"], "{pair:?}");
    }
}

#[test]
fn devices_cross_the_message_boundary_as_strings() {
    let device = Device::parse("cuda:1").unwrap();
    assert_eq!(serde_json::to_string(&device).unwrap(), r#""cuda:1""#);
    assert_eq!(
        serde_json::from_str::<Device>(r#""cuda:1""#).unwrap(),
        device
    );
    assert!(serde_json::from_str::<Device>(r#""gpu""#).is_err());
}

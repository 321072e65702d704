//! Views against PyTorch 2.15: for 8 source layouts (contiguous, transposed, strided, expanded,
//! 0-dim…) and every view op, the resulting shape, strides and storage offset, or PyTorch's exact
//! error (`tests/golden/layouts.json`); and broadcasting (`tests/golden/broadcasting.json`).

use serde_json::{Value, json};
use tolab_engine::Error;
use tolab_engine::layout::{Layout, Reshape, broadcast_shapes};

fn usizes(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

fn apply(source: &Layout, op: &str, args: &Value) -> Result<Layout, Error> {
    let a = args.as_array().unwrap();
    let int = |i: usize| a[i].as_i64();
    match op {
        "view" => source.view(&ints(args)),
        "reshape" => source.reshape(&ints(args)).map(|r| match r {
            Reshape::View(layout) => layout,
            Reshape::Copy(shape) => Layout::contiguous(&shape),
        }),
        "transpose" => source.transpose(int(0).unwrap(), int(1).unwrap()),
        "t" => source.t(),
        "permute" => source.permute(&ints(args)),
        "unsqueeze" => source.unsqueeze(int(0).unwrap()),
        "squeeze" => source.squeeze(int(0)),
        "expand" => source.expand(&ints(args), "torch.FloatTensor"),
        "select" => source.select(int(0).unwrap(), int(1).unwrap()),
        "slice" => source.slice(int(0).unwrap(), int(1), int(2), int(3).unwrap()),
        "contiguous" if source.is_contiguous() => Ok(source.clone()),
        "contiguous" => Ok(Layout::contiguous(&source.shape)),
        other => panic!("unknown op {other}"),
    }
}

fn as_json(layout: &Layout) -> Value {
    json!({
        "shape": layout.shape,
        "stride": layout.strides,
        "offset": layout.offset,
        "contiguous": layout.is_contiguous(),
    })
}

#[test]
fn every_view_op_gives_pytorchs_layout_or_error() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/layouts.json")).unwrap();
    assert!(cases.len() > 500);
    let mut failures = Vec::new();
    for case in &cases {
        let src = &case["source_layout"];
        let source = Layout {
            shape: usizes(&src["shape"]),
            strides: usizes(&src["stride"]),
            offset: src["offset"].as_u64().unwrap() as usize,
        };
        assert_eq!(as_json(&source), *src, "source layouts agree on contiguity");
        let op = case["op"].as_str().unwrap();
        let got = apply(&source, op, &case["args"]);
        let ok = match (case.get("ok"), &got) {
            (Some(expected), Ok(layout)) => as_json(layout) == *expected,
            (None, Err(e)) => {
                e.to_string() == case["message"] && e.python_type().name() == case["error"]
            }
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{} {} {}({}): expected {}, got {:?}",
                case["source"],
                case["how"],
                op,
                case["args"],
                case.get("ok").unwrap_or(&case["message"]),
                got.map(|l| as_json(&l))
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn broadcasting_matches_pytorch_elementwise_ops() {
    let cases: Vec<Value> =
        serde_json::from_str(include_str!("../../tests/golden/broadcasting.json")).unwrap();
    for case in cases.iter().filter(|c| c["op"] == "add") {
        let got = broadcast_shapes(&usizes(&case["a"]), &usizes(&case["b"]));
        match (case.get("ok"), got) {
            (Some(shape), Ok(got)) => assert_eq!(usizes(shape), got, "{case}"),
            (None, Err(e)) => assert_eq!(e.to_string(), case["message"], "{case}"),
            (_, got) => panic!("{case}: got {got:?}"),
        }
    }
}

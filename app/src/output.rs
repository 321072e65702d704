//! A cell's output area: what a run showed, as spans styled by kind (printed text, warnings,
//! the value, the traceback), and why a run gave nothing when the runtime could not answer.

use tolab_cells::{Reply, RunRecord, Shown};
use web_sys::Element;

/// Adds `text` to `output` as a span of `class`.
pub fn append(output: &Element, class: &str, text: &str) {
    if text.is_empty() {
        return;
    }
    let Some(span) = output
        .owner_document()
        .and_then(|d| crate::dom::element(&d, "span", class).ok())
    else {
        return;
    };
    span.set_text_content(Some(text));
    let _ = output.append_child(&span);
}

pub fn clear(output: &Element) {
    output.set_text_content(None);
}

/// Adds what `record` shows to `output`.
pub fn show(output: &Element, record: &RunRecord) {
    for (part, text) in record.shown() {
        let class = match part {
            Shown::Stdout => "out-stdout",
            Shown::Warning => "out-warning",
            Shown::Value => "out-value",
            Shown::Traceback => "out-error",
        };
        append(output, class, &text);
    }
}

/// Shows in `output` why the runtime gave no record.
pub fn fail(output: &Element, reply: Reply) {
    let text = match reply {
        Reply::Unavailable { reason } => format!("The runtime is unavailable: {reason}"),
        other => format!("Unexpected reply: {other:?}"),
    };
    clear(output);
    output.set_class_name("cell-output error");
    append(output, "out-error", &text);
    count_run(output);
}

/// Counts a finished run on `output` (`data-runs`), so that tests and assistive tools can tell a
/// run that showed nothing from one still going.
pub fn count_run(output: &Element) {
    let runs: u32 = output
        .get_attribute("data-runs")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let _ = output.set_attribute("data-runs", &(runs + 1).to_string());
}

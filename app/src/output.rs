//! A cell's output area: what a run showed, as spans styled by kind (printed text, warnings, the
//! value, the traceback, the lab's own notes), and why a run gave nothing when the runtime could
//! not answer.
//!
//! A cell may print a million lines, and the page must not freeze: text is buffered and drawn
//! at most once per animation frame; the area has a capped height and scrolls; past
//! [`HEAD_LINES`] + [`TAIL_LINES`] lines only the start and the end are drawn, with "N lines
//! hidden — Show all · Download" between them. Everything is kept for Show all and Download, up
//! to [`KEPT_BYTES`].

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use tolab_cells::{Reply, RunRecord, Shown};
use wasm_bindgen::prelude::*;
use web_sys::Element;

/// Lines drawn from the start of a long output, and from its end.
const HEAD_LINES: usize = 200;
const TAIL_LINES: usize = 200;
/// Show all draws at most this many lines (a longer output is downloaded instead).
const SHOW_ALL_LINES: usize = 20_000;
/// What is kept for Show all and Download; past it the rest is counted.
const KEPT_BYTES: usize = 32 << 20;

/// What a piece of output is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Stdout,
    Warning,
    Value,
    Error,
    /// The lab's own words (Running…, what a check ran first): not part of the program's output.
    Note,
}

impl Kind {
    const ALL: [Kind; 5] = [
        Kind::Stdout,
        Kind::Warning,
        Kind::Value,
        Kind::Error,
        Kind::Note,
    ];

    fn class(self) -> &'static str {
        match self {
            Kind::Stdout => "out-stdout",
            Kind::Warning => "out-warning",
            Kind::Value => "out-value",
            Kind::Error => "out-error",
            Kind::Note => "out-note",
        }
    }
}

/// The text of one run, bounded: the pieces of its first lines, its last lines, how many lines
/// between are not drawn, and everything (to a limit) for Show all and Download.
#[derive(Default, Debug)]
struct Text {
    head: Vec<(Kind, String)>,
    head_lines: usize,
    tail: VecDeque<(Kind, String)>,
    hidden: usize,
    all: Vec<(Kind, String)>,
    all_bytes: usize,
    /// Bytes past [`KEPT_BYTES`], not kept.
    dropped_bytes: usize,
    lines: usize,
}

impl Text {
    fn push(&mut self, kind: Kind, text: &str) {
        if self.all_bytes + text.len() <= KEPT_BYTES {
            self.all_bytes += text.len();
            match self.all.last_mut() {
                Some((k, t)) if *k == kind => t.push_str(text),
                _ => self.all.push((kind, text.to_owned())),
            }
        } else {
            self.dropped_bytes += text.len();
        }
        for line in text.split_inclusive('\n') {
            let ends = line.ends_with('\n');
            if ends {
                self.lines += 1;
            }
            if self.head_lines < HEAD_LINES {
                match self.head.last_mut() {
                    Some((k, t)) if *k == kind => t.push_str(line),
                    _ => self.head.push((kind, line.to_owned())),
                }
                if ends {
                    self.head_lines += 1;
                }
                continue;
            }
            // The tail holds whole lines: a piece without its newline joins the last one.
            match self.tail.back_mut() {
                Some((k, t)) if *k == kind && !t.ends_with('\n') => t.push_str(line),
                _ => self.tail.push_back((kind, line.to_owned())),
            }
            while self.tail.len() > TAIL_LINES {
                self.tail.pop_front();
                self.hidden += 1;
            }
        }
    }

    /// The whole text, as a file to download.
    fn download(&self) -> String {
        let mut text: String = self.all.iter().map(|(_, t)| t.as_str()).collect();
        if self.dropped_bytes > 0 {
            text.push_str(&format!(
                "\n[the lab kept the first {} MiB; {} more bytes were printed]\n",
                KEPT_BYTES >> 20,
                self.dropped_bytes
            ));
        }
        text
    }
}

/// One output area on the page.
pub struct Output {
    element: Element,
    text: RefCell<Text>,
    expanded: Cell<bool>,
    /// Whether a frame is already asked for.
    scheduled: Cell<bool>,
    /// The next frame's drawing, kept while it is asked for.
    frame: RefCell<Option<Closure<dyn FnMut()>>>,
    /// Finished runs, shown as `data-runs` once drawn.
    runs: Cell<u32>,
}

impl Output {
    /// Makes `element` (a `pre`) an output area.
    pub fn new(element: Element) -> Rc<Output> {
        Rc::new(Output {
            element,
            text: RefCell::default(),
            expanded: Cell::new(false),
            scheduled: Cell::new(false),
            frame: RefCell::default(),
            runs: Cell::new(0),
        })
    }

    pub fn element(&self) -> &Element {
        &self.element
    }

    /// Empties the area for a new run.
    pub fn clear(self: &Rc<Self>) {
        *self.text.borrow_mut() = Text::default();
        self.expanded.set(false);
        self.schedule();
    }

    /// Adds `text` of `kind`; it is drawn with the next frame.
    pub fn append(self: &Rc<Self>, kind: Kind, text: &str) {
        if text.is_empty() {
            return;
        }
        self.text.borrow_mut().push(kind, text);
        self.schedule();
    }

    /// What the area shows, small enough to keep in the browser's storage: the start and the
    /// end of a long output with a line counting what is between (`[class, text]` pairs).
    pub fn snapshot(&self) -> Vec<(String, String)> {
        const KEEP_BYTES: usize = 16 << 10;
        let text = self.text.borrow();
        let mut parts: Vec<(String, String)> = Vec::new();
        let mut bytes = 0;
        let mut keep = |kind: Kind, piece: &str, parts: &mut Vec<(String, String)>| {
            let room = KEEP_BYTES.saturating_sub(bytes);
            let mut cut = piece.len().min(room);
            while !piece.is_char_boundary(cut) {
                cut -= 1;
            }
            bytes += cut;
            if cut > 0 {
                parts.push((kind.class().to_owned(), piece[..cut].to_owned()));
            }
        };
        text.head.iter().for_each(|(k, t)| keep(*k, t, &mut parts));
        if text.hidden > 0 {
            let note = format!("… {} lines were hidden here …\n", text.hidden);
            keep(Kind::Note, &note, &mut parts);
        }
        text.tail.iter().for_each(|(k, t)| keep(*k, t, &mut parts));
        parts
    }

    /// Shows a [`Output::snapshot`] kept from an earlier visit.
    pub fn restore(self: &Rc<Self>, parts: &[(String, String)]) {
        self.clear();
        for (class, piece) in parts {
            if let Some(kind) = Kind::ALL.iter().find(|k| k.class() == class) {
                self.append(*kind, piece);
            }
        }
    }

    /// Removes the lab's notes (Running…) from what is shown.
    pub fn drop_notes(self: &Rc<Self>) {
        let mut text = self.text.borrow_mut();
        let kept: Vec<(Kind, String)> = text
            .all
            .drain(..)
            .filter(|(kind, _)| *kind != Kind::Note)
            .collect();
        let mut fresh = Text::default();
        for (kind, piece) in &kept {
            fresh.push(*kind, piece);
        }
        *text = fresh;
        drop(text);
        self.schedule();
    }

    /// Adds what the rest of `record` shows (its stdout, warnings, value and traceback).
    pub fn show(self: &Rc<Self>, record: &RunRecord) {
        for (part, text) in record.shown() {
            let kind = match part {
                Shown::Stdout => Kind::Stdout,
                // Jupyter shows stderr as it shows warnings (which Python prints there).
                Shown::Stderr | Shown::Warning => Kind::Warning,
                Shown::Value => Kind::Value,
                Shown::Traceback => Kind::Error,
            };
            self.append(kind, &text);
        }
    }

    /// Shows why the runtime gave no record.
    pub fn fail(self: &Rc<Self>, reply: Reply) {
        let text = match reply {
            Reply::Unavailable { reason } => format!("The runtime is unavailable: {reason}"),
            Reply::Restarted { reason } => format!(
                "The runtime was restarted ({reason}): the notebook's variables are gone; your code is kept."
            ),
            other => format!("Unexpected reply: {other:?}"),
        };
        self.clear();
        self.element.set_class_name("cell-output error");
        self.append(Kind::Error, &text);
        self.count_run();
    }

    /// Counts a finished run on the area (`data-runs`), so that tests and assistive tools can
    /// tell a run that showed nothing from one still going. The count changes when the run's
    /// text is drawn, not before.
    pub fn count_run(self: &Rc<Self>) {
        self.runs.set(self.runs.get() + 1);
        self.schedule();
    }

    /// Asks for a frame to draw in, unless one is asked for already.
    fn schedule(self: &Rc<Self>) {
        if self.scheduled.replace(true) {
            return;
        }
        let me = Rc::downgrade(self);
        let frame = Closure::<dyn FnMut()>::new(move || {
            if let Some(me) = me.upgrade() {
                me.scheduled.set(false);
                me.draw();
            }
        });
        let asked = web_sys::window().is_some_and(|w| {
            w.request_animation_frame(frame.as_ref().unchecked_ref())
                .is_ok()
        });
        *self.frame.borrow_mut() = Some(frame);
        if !asked {
            self.scheduled.set(false);
            self.draw();
        }
    }

    /// Draws the text now: whole, or its start and end around the hidden middle.
    fn draw(self: &Rc<Self>) {
        let Some(document) = self.element.owner_document() else {
            return;
        };
        // Keep the reader at the bottom while output grows, unless they scrolled up.
        let at_bottom = self.element.scroll_top() + self.element.client_height()
            >= self.element.scroll_height() - 4;
        let text = self.text.borrow();
        self.element.set_text_content(None);
        let span = |kind: Kind, piece: &str| {
            if let Ok(span) = crate::dom::element(&document, "span", kind.class()) {
                span.set_text_content(Some(piece));
                let _ = self.element.append_child(&span);
            }
        };
        if self.expanded.get() && text.hidden > 0 && text.dropped_bytes == 0 {
            text.all.iter().for_each(|(kind, piece)| span(*kind, piece));
        } else {
            text.head
                .iter()
                .for_each(|(kind, piece)| span(*kind, piece));
            if text.hidden > 0 {
                self.draw_elided(&document, &text);
            }
            text.tail
                .iter()
                .for_each(|(kind, piece)| span(*kind, piece));
        }
        self.element
            .set_attribute("data-lines", &text.lines.to_string())
            .ok();
        if self.runs.get() > 0 {
            let _ = self
                .element
                .set_attribute("data-runs", &self.runs.get().to_string());
        }
        self.element
            .set_attribute("data-hidden", &text.hidden.to_string())
            .ok();
        if at_bottom {
            self.element.set_scroll_top(self.element.scroll_height());
        }
    }

    /// The bar that stands for the hidden lines, with Show all and Download.
    fn draw_elided(self: &Rc<Self>, document: &web_sys::Document, text: &Text) {
        let Ok(bar) = crate::dom::element(document, "span", "out-elided") else {
            return;
        };
        bar.set_text_content(Some(&format!(
            "… {} line{} hidden …",
            text.hidden,
            if text.hidden == 1 { "" } else { "s" }
        )));
        let _ = self.element.append_child(&bar);
        let button = |label: &str, action: &str, on_click: Box<dyn Fn()>| {
            let Ok(button) = crate::dom::element(document, "button", "out-elided-action") else {
                return;
            };
            button.set_text_content(Some(label));
            let _ = button.set_attribute("type", "button");
            let _ = button.set_attribute("data-action", action);
            let click = Closure::<dyn Fn()>::new(on_click);
            let _ =
                button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref());
            click.forget();
            let _ = bar.append_child(&button);
        };
        if text.lines <= SHOW_ALL_LINES && text.dropped_bytes == 0 {
            let me = Rc::downgrade(self);
            button(
                "Show all",
                "show-all",
                Box::new(move || {
                    if let Some(me) = me.upgrade() {
                        me.expanded.set(true);
                        me.schedule();
                    }
                }),
            );
        }
        let me = Rc::downgrade(self);
        button(
            "Download",
            "download",
            Box::new(move || {
                if let Some(me) = me.upgrade() {
                    download("output.txt", &me.text.borrow().download());
                }
            }),
        );
        let _ = bar.append_child(&document.create_text_node("\n"));
    }
}

/// Offers `text` to the learner as a file named `name`.
fn download(name: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(document) = web_sys::window().and_then(|w| w.document())
        && let Ok(link) = document.create_element("a")
        && let Ok(link) = link.dyn_into::<web_sys::HtmlAnchorElement>()
    {
        link.set_href(&url);
        link.set_download(name);
        link.click();
    }
    let _ = web_sys::Url::revoke_object_url(&url);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_output_keeps_its_start_and_end_and_counts_the_middle() {
        let mut text = Text::default();
        for i in 0..1_000 {
            text.push(Kind::Stdout, &format!("{i}\n"));
        }
        assert_eq!(text.lines, 1_000);
        assert_eq!(text.head_lines, HEAD_LINES);
        assert_eq!(text.tail.len(), TAIL_LINES);
        assert_eq!(text.hidden, 1_000 - HEAD_LINES - TAIL_LINES);
        assert_eq!(text.tail.back().map(|(_, t)| t.as_str()), Some("999\n"));
        assert!(text.download().starts_with("0\n1\n") && text.download().ends_with("999\n"));
    }

    #[test]
    fn pieces_of_one_line_join_in_the_tail_and_kinds_stay_apart() {
        let mut text = Text::default();
        for _ in 0..HEAD_LINES {
            text.push(Kind::Stdout, "x\n");
        }
        text.push(Kind::Stdout, "a");
        text.push(Kind::Stdout, "b\n");
        text.push(Kind::Error, "Traceback\n");
        let tail: Vec<_> = text.tail.iter().cloned().collect();
        assert_eq!(
            tail,
            [
                (Kind::Stdout, "ab\n".to_owned()),
                (Kind::Error, "Traceback\n".to_owned())
            ]
        );
    }
}

//! Python's `warnings` machinery for the `UserWarning`s PyTorch raises: the warnings waiting to
//! be shown, the filters `warnings.simplefilter`/`filterwarnings` set (the first match decides),
//! and the registry behind the default filter, which shows a warning once per place (a loop
//! warns once), reset for each run and by `catch_warnings`.

use std::collections::HashSet;
use std::rc::Rc;

/// What a warning does (a filter's action).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WarningAction {
    /// Shown once per place that raises it (Python's default filter).
    #[default]
    Default,
    /// Shown every time.
    Always,
    /// Shown once per text, wherever it comes from.
    Once,
    /// Not shown.
    Ignore,
}

/// Whether a filter's message pattern matches a warning's text.
pub type MessageMatcher = Rc<dyn Fn(&str) -> bool>;

/// One filter that applies to `UserWarning`s: its action, for the messages it matches (all of
/// them without a pattern).
#[derive(Clone)]
pub struct WarningFilter {
    pub action: WarningAction,
    pub message: Option<MessageMatcher>,
}

impl std::fmt::Debug for WarningFilter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let which = match self.message {
            Some(_) => "some messages",
            None => "every message",
        };
        write!(f, "{:?} ({which})", self.action)
    }
}

/// Where a warning came from: the running source's identity and the statement's offset in it.
type Place = (usize, u32);

/// See [`Warnings::mark`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct WarningsMark {
    pending: usize,
    shown: usize,
}

#[derive(Debug, Default)]
pub struct Warnings {
    /// Raised and shown, not yet collected by the runtime.
    pending: Vec<String>,
    filters: Vec<WarningFilter>,
    /// The statement running now (see [`Warnings::set_place`]).
    place: Option<Place>,
    /// What the default filter showed in this run: a text and its place (none for "once").
    shown: HashSet<(String, Option<Place>)>,
    /// `shown`'s entries in the order they came, so that a call run again can take its own back.
    shown_order: Vec<(String, Option<Place>)>,
    /// The once-per-process warnings given, by key.
    given_once: HashSet<&'static str>,
}

impl Warnings {
    /// A warning raised now: whether the filters let it show (it is then pending).
    pub(crate) fn raise(&mut self, message: &str) -> bool {
        let action = self
            .filters
            .iter()
            .find(|f| f.message.as_ref().is_none_or(|matches| matches(message)))
            .map_or(WarningAction::Default, |f| f.action);
        let key = match action {
            WarningAction::Ignore => return false,
            WarningAction::Always => None,
            WarningAction::Once => Some(None),
            WarningAction::Default => Some(self.place),
        };
        let shows = key.is_none_or(|place| {
            let entry = (message.to_owned(), place);
            let new = self.shown.insert(entry.clone());
            if new {
                self.shown_order.push(entry);
            }
            new
        });
        if shows {
            self.pending.push(message.to_owned());
        }
        shows
    }

    /// Whether a once-per-process warning is given for the first time.
    pub(crate) fn first_time(&mut self, key: &'static str) -> bool {
        self.given_once.insert(key)
    }

    pub(crate) fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending)
    }

    /// Puts back warnings taken earlier (shown already: not filtered again).
    pub fn restore(&mut self, warnings: Vec<String>) {
        self.pending.extend(warnings);
    }

    /// A filter: consulted first, or last with `append`.
    pub fn add_filter(&mut self, filter: WarningFilter, append: bool) {
        match append {
            true => self.filters.push(filter),
            false => self.filters.insert(0, filter),
        }
    }

    /// The filters, first to be consulted first (`catch_warnings` keeps them to put back).
    pub fn filters(&self) -> Vec<WarningFilter> {
        self.filters.clone()
    }

    pub fn set_filters(&mut self, filters: Vec<WarningFilter>) {
        self.filters = filters;
    }

    /// The statement the runtime runs now: where a warning comes from. (Cheap enough to set at
    /// every statement, unlike a trace span.)
    pub fn set_place(&mut self, source: usize, offset: u32) {
        self.place = Some((source, offset));
    }

    /// Forgets which warnings were shown: a new run (or a `catch_warnings()` block, which
    /// resets Python's registry) shows them again.
    pub fn reset_registry(&mut self) {
        self.shown.clear();
        self.shown_order.clear();
    }

    /// Where a call begins that may run again (see `Session::retry_mark`).
    pub(crate) fn mark(&self) -> WarningsMark {
        WarningsMark {
            pending: self.pending.len(),
            shown: self.shown_order.len(),
        }
    }

    /// Takes back what a call that will run again raised: it raises it again then.
    pub(crate) fn rewind(&mut self, mark: WarningsMark) {
        self.pending.truncate(mark.pending);
        let again = self
            .shown_order
            .split_off(mark.shown.min(self.shown_order.len()));
        for entry in again {
            self.shown.remove(&entry);
        }
    }
}

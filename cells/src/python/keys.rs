//! Dict keys and set items that are learners' objects with `__eq__`: found by their
//! `__hash__` and `__eq__`, as CPython finds them. Dicts and sets run synchronously and compare
//! such objects by identity, so before an operation a key is swapped for the equal key the
//! container already holds (same hash, `__eq__` true), and a set or dict being built drops the
//! equal ones. A class that defines `__eq__` without `__hash__` makes unhashable objects, as in
//! CPython.

use ruff_python_ast::CmpOp;

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::Value;

/// How a learner's object hashes. Along the method resolution order, the first class that
/// defines `__eq__` or `__hash__` decides: defining `__eq__` alone sets `__hash__` to None, as
/// `__hash__ = None` does outright.
#[derive(Clone, Copy, PartialEq)]
enum Hashing {
    /// Not a learner's object, or one hashing and comparing by identity.
    Identity,
    /// By the learner's `__hash__` (and `__eq__`, where the class has one).
    Learned { eq: bool },
    /// `__eq__` without `__hash__`.
    Unhashable,
}

fn hashing_of(v: &Value) -> Hashing {
    let Value::Instance(i) = v else {
        return Hashing::Identity;
    };
    let eq = i.class.lookup("__eq__").is_some();
    for class in std::iter::once(&i.class).chain(i.class.ancestors.iter()) {
        let namespace = class.namespace.borrow();
        match (namespace.contains_key("__eq__"), namespace.get("__hash__")) {
            (_, Some(Value::None)) | (true, None) => return Hashing::Unhashable,
            (_, Some(_)) => return Hashing::Learned { eq },
            (false, None) => {}
        }
    }
    Hashing::Identity
}

/// Whether `key` needs looking up by `__eq__` (an object with one, or a tuple holding one),
/// or raising that it cannot be hashed.
fn compares_by_value(key: &Value) -> bool {
    match key {
        Value::Tuple(items) => items.iter().any(compares_by_value),
        _ => matches!(
            hashing_of(key),
            Hashing::Learned { eq: true } | Hashing::Unhashable
        ),
    }
}

impl Interpreter {
    /// The hash a dict or set gives `key`, and `hash(key)`: a learner's `__hash__` where it
    /// has one.
    pub(crate) async fn key_hash(&mut self, key: &Value) -> Result<i64, Flow> {
        match hashing_of(key) {
            Hashing::Unhashable => Err(PyException::new(
                ExcType::TypeError,
                format!("unhashable type: '{}'", key.type_name()),
            )
            .into()),
            Hashing::Learned { .. } => match self.call_dunder(key, "__hash__", Vec::new()).await? {
                Value::Int(h) => Ok(h),
                Value::Bool(b) => Ok(i64::from(b)),
                _ => Err(PyException::new(
                    ExcType::TypeError,
                    "__hash__ method should return an integer",
                )
                .into()),
            },
            Hashing::Identity => match key {
                Value::Tuple(items) if items.iter().any(compares_by_value) => {
                    let mut lanes = Vec::with_capacity(items.len());
                    for item in items.iter() {
                        lanes.push(Box::pin(self.key_hash(item)).await?);
                    }
                    Ok(super::hashing::tuple_hash(&lanes))
                }
                _ => Ok(super::hashing::hash(key)?),
            },
        }
    }

    /// `key` as `container` (a dict or a set, or an object carrying one) already holds it,
    /// when it is a learner's object equal to one of its keys; else `key` itself.
    pub(crate) async fn held_key(&mut self, container: &Value, key: Value) -> Result<Value, Flow> {
        if !compares_by_value(&key) {
            return Ok(key);
        }
        let held: Vec<Value> = match &*container.resolved() {
            Value::Dict(entries) => entries.borrow().iter().map(|(k, _)| k.clone()).collect(),
            Value::Set(items) => items.borrow().clone(),
            _ => return Ok(key),
        };
        self.equal_among(&held, key).await
    }

    /// The first of `held` with `key`'s hash that `key.__eq__` says is equal, else `key`.
    async fn equal_among(&mut self, held: &[Value], key: Value) -> Result<Value, Flow> {
        let hash = self.key_hash(&key).await?;
        for candidate in held {
            if super::value::identical(candidate, &key) {
                return Ok(key);
            }
            // Keys that cannot hash are not in a dict; those with other hashes are not equal.
            let Ok(other) = Box::pin(self.key_hash(candidate)).await else {
                continue;
            };
            if other == hash && self.keys_equal(&key, candidate).await? {
                return Ok(candidate.clone());
            }
        }
        Ok(key)
    }

    /// Where `item` is in `items` by `==` (identity first, then a learner's `__eq__`), as
    /// `in`, `list.index` and `list.remove` look.
    pub(crate) async fn position_of(
        &mut self,
        items: &[Value],
        item: &Value,
    ) -> Result<Option<usize>, Flow> {
        for (i, candidate) in items.iter().enumerate() {
            if super::value::identical(candidate, item) || self.keys_equal(item, candidate).await? {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    async fn keys_equal(&mut self, a: &Value, b: &Value) -> Result<bool, Flow> {
        let answer = match self.compare_dunder(CmpOp::Eq, a, b).await? {
            Some(answer) => answer,
            None => Box::pin(self.deep_equal(a, b)).await.map(Value::Bool)?,
        };
        self.truth(&answer).await
    }

    /// Items for a new set (or a new dict's keys): each learner's object equal to an earlier
    /// item becomes that item, so that the set keeps one of them.
    pub(crate) async fn distinct_keys(&mut self, items: Vec<Value>) -> Result<Vec<Value>, Flow> {
        if !items.iter().any(compares_by_value) {
            return Ok(items);
        }
        let mut out: Vec<Value> = Vec::with_capacity(items.len());
        for item in items {
            let item = if compares_by_value(&item) {
                self.equal_among(&out, item).await?
            } else {
                item
            };
            out.push(item);
        }
        Ok(out)
    }
}

/// The dict methods whose first argument is a key.
const DICT_KEY_METHODS: &[&str] = &["get", "pop", "setdefault", "__contains__", "__getitem__"];

/// The set methods whose first argument is an item.
const SET_KEY_METHODS: &[&str] = &["add", "remove", "discard", "__contains__"];

/// The set methods whose arguments are iterables of items.
const SET_OPERAND_METHODS: &[&str] = &[
    "update",
    "union",
    "intersection",
    "difference",
    "symmetric_difference",
    "issubset",
    "issuperset",
    "isdisjoint",
    "intersection_update",
    "difference_update",
    "symmetric_difference_update",
];

/// What [`Interpreter::keyed_method`] made of a container method's call.
pub(crate) enum Keyed {
    /// The call, with its keys swapped for the ones the container holds.
    Call(Args),
    /// The answer, found by `__eq__` here (`items.index(obj)`).
    Answer(Value),
}

impl Interpreter {
    /// A dict, set or list method given learners' objects that compare by `__eq__`
    /// (`seen.add(obj)`, `counts.get(obj)`, `items.index(obj)`): their keys as the container
    /// holds them, or the answer itself where identity cannot stand in for equality.
    pub(crate) async fn keyed_method(
        &mut self,
        owner: &Value,
        name: &str,
        mut args: Args,
    ) -> Result<Keyed, Flow> {
        let keyed = DICT_KEY_METHODS.contains(&name)
            || SET_KEY_METHODS.contains(&name)
            || SET_OPERAND_METHODS.contains(&name)
            || matches!(name, "update" | "index" | "count" | "remove");
        if !keyed || !args.positional.iter().any(holds_keys) {
            return Ok(Keyed::Call(args));
        }
        let owner = owner.resolved().into_owned();
        match (&owner, name) {
            (Value::Dict(_), _) if DICT_KEY_METHODS.contains(&name) => {
                let key = args.positional[0].clone();
                args.positional[0] = self.held_key(&owner, key).await?;
            }
            (Value::Set(_), _) if SET_KEY_METHODS.contains(&name) => {
                let key = args.positional[0].clone();
                args.positional[0] = self.held_key(&owner, key).await?;
            }
            (Value::Set(_), _) if SET_OPERAND_METHODS.contains(&name) => {
                for arg in args.positional.iter_mut() {
                    let items = super::operators::iterate(arg)?;
                    let mut held = Vec::with_capacity(items.len());
                    for item in items {
                        held.push(self.held_key(&owner, item).await?);
                    }
                    *arg = Value::list(self.distinct_keys(held).await?);
                }
            }
            (Value::Dict(_), "update")
                if let Some(Value::Dict(other)) = args.positional.first() =>
            {
                let entries = other.borrow().clone();
                let mut pairs = Vec::with_capacity(entries.len());
                for (key, value) in entries {
                    let key = self.held_key(&owner, key).await?;
                    pairs.push(Value::Tuple(vec![key, value].into()));
                }
                args.positional[0] = Value::list(pairs);
            }
            (Value::List(items), "index" | "remove" | "count") => {
                let items = items.borrow().clone();
                let item = args.positional[0].clone();
                if name == "count" {
                    let mut count = 0;
                    for candidate in &items {
                        if super::value::identical(candidate, &item)
                            || self.keys_equal(&item, candidate).await?
                        {
                            count += 1;
                        }
                    }
                    return Ok(Keyed::Answer(Value::Int(count)));
                }
                let Some(at) = self.position_of(&items, &item).await? else {
                    let shown = self.text_of(&item, false).await?;
                    let message = match name {
                        "index" => format!("{shown} is not in list"),
                        _ => "list.remove(x): x not in list".to_owned(),
                    };
                    return Err(PyException::new(ExcType::ValueError, message).into());
                };
                if name == "index" {
                    return Ok(Keyed::Answer(Value::Int(at as i64)));
                }
                if let Value::List(list) = &owner {
                    list.borrow_mut().remove(at);
                }
                return Ok(Keyed::Answer(Value::None));
            }
            _ => {}
        }
        Ok(Keyed::Call(args))
    }
}

/// Whether an argument is, or holds, learners' objects that compare by `__eq__`.
fn holds_keys(v: &Value) -> bool {
    match v {
        Value::List(items) => items.borrow().iter().any(compares_by_value),
        Value::Set(items) => items.borrow().iter().any(compares_by_value),
        Value::Dict(entries) => entries.borrow().iter().any(|(k, _)| compares_by_value(k)),
        other => compares_by_value(other),
    }
}

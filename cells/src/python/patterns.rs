//! `match` statements (PEP 634): each `case` pattern tried against the subject in order, its
//! captures bound as it matches, its guard checked, and the first that holds runs its body.
//!
//! Patterns follow CPython's rules: literals compare by `==` (`None`, `True`, `False` by
//! identity), sequence patterns take lists, tuples and ranges but not strings or dicts, mapping
//! patterns look keys up without `__missing__`, class patterns check `isinstance` and read
//! `__match_args__` for positional sub-patterns (the built-in types match themselves whole).

use ruff_python_ast::{Pattern, Singleton, StmtMatch};

use super::args::Flow;
use super::builtins::is_instance;
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::Value;

/// The built-in classes whose single positional sub-pattern matches the subject itself
/// (`case int(n)`), as CPython's `Py_TPFLAGS_MATCH_SELF`.
const MATCH_SELF: &[&str] = &[
    "bool",
    "bytearray",
    "bytes",
    "dict",
    "float",
    "frozenset",
    "int",
    "list",
    "set",
    "str",
    "tuple",
];

impl Interpreter {
    pub(crate) async fn match_statement(&mut self, m: &StmtMatch) -> Result<(), Flow> {
        let subject = self.expr(&m.subject).await?;
        for case in &m.cases {
            if !self.matches(&case.pattern, &subject).await? {
                continue;
            }
            if let Some(guard) = &case.guard
                && !self.test(guard).await?
            {
                continue;
            }
            return self.block(&case.body).await;
        }
        Ok(())
    }

    /// Whether `subject` matches `pattern`, binding its captures as it goes.
    async fn matches(&mut self, pattern: &Pattern, subject: &Value) -> Result<bool, Flow> {
        Box::pin(async move {
            match pattern {
                Pattern::MatchValue(p) => {
                    let value = self.expr(&p.value).await?;
                    self.deep_equal(subject, &value).await
                }
                Pattern::MatchSingleton(p) => Ok(match (p.value, subject) {
                    (Singleton::None, Value::None) => true,
                    (Singleton::True, Value::Bool(b)) | (Singleton::False, Value::Bool(b)) => {
                        *b == (p.value == Singleton::True)
                    }
                    _ => false,
                }),
                Pattern::MatchAs(p) => {
                    if let Some(inner) = &p.pattern
                        && !self.matches(inner, subject).await?
                    {
                        return Ok(false);
                    }
                    if let Some(name) = &p.name {
                        self.set_name(name.id.as_str(), subject.clone());
                    }
                    Ok(true)
                }
                Pattern::MatchOr(p) => {
                    for alternative in &p.patterns {
                        if self.matches(alternative, subject).await? {
                            return Ok(true);
                        }
                    }
                    Ok(false)
                }
                Pattern::MatchSequence(p) => self.matches_sequence(&p.patterns, subject).await,
                Pattern::MatchMapping(p) => {
                    let resolved = subject.resolved();
                    let Value::Dict(entries) = &*resolved else {
                        return Ok(false);
                    };
                    let mut remaining = entries.borrow().clone();
                    for (key, pattern) in p.keys.iter().zip(p.patterns.iter()) {
                        let key = self.expr(key).await?;
                        let Some(at) = remaining
                            .iter()
                            .position(|(k, _)| super::value::equal(k, &key))
                        else {
                            return Ok(false);
                        };
                        let (_, value) = remaining.remove(at);
                        if !self.matches(pattern, &value).await? {
                            return Ok(false);
                        }
                    }
                    if let Some(rest) = &p.rest {
                        let rest_dict = Value::Dict(std::rc::Rc::new(remaining.into()));
                        self.set_name(rest.id.as_str(), rest_dict);
                    }
                    Ok(true)
                }
                Pattern::MatchClass(p) => {
                    let class = self.expr(&p.cls).await?;
                    self.matches_class(&class, &p.arguments, subject).await
                }
                // A star appears only inside a sequence pattern, which handles it.
                Pattern::MatchStar(_) => Ok(true),
            }
        })
        .await
    }

    async fn matches_sequence(
        &mut self,
        patterns: &[Pattern],
        subject: &Value,
    ) -> Result<bool, Flow> {
        let resolved = subject.resolved();
        let items: Vec<Value> = match &*resolved {
            Value::List(items) => items.borrow().clone(),
            Value::Tuple(items) => items.to_vec(),
            Value::Range { .. } => super::operators::iterate(&resolved)?,
            _ => return Ok(false),
        };
        let star = patterns
            .iter()
            .position(|p| matches!(p, Pattern::MatchStar(_)));
        let (before, after) = match star {
            Some(at) => (at, patterns.len() - at - 1),
            None if items.len() != patterns.len() => return Ok(false),
            None => (patterns.len(), 0),
        };
        if items.len() < before + after {
            return Ok(false);
        }
        for (pattern, item) in patterns[..before].iter().zip(&items) {
            if !self.matches(pattern, item).await? {
                return Ok(false);
            }
        }
        let tail = items.len() - after;
        if let Some(at) = star {
            if let Pattern::MatchStar(s) = &patterns[at]
                && let Some(name) = &s.name
            {
                let middle = Value::list(items[before..tail].to_vec());
                self.set_name(name.id.as_str(), middle);
            }
            for (pattern, item) in patterns[at + 1..].iter().zip(&items[tail..]) {
                if !self.matches(pattern, item).await? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    async fn matches_class(
        &mut self,
        class: &Value,
        arguments: &ruff_python_ast::PatternArguments,
        subject: &Value,
    ) -> Result<bool, Flow> {
        if !matches!(
            class,
            Value::Class(_) | Value::Type(_) | Value::ExcClass(_) | Value::NnClass(_)
        ) {
            return Err(PyException::new(
                ExcType::TypeError,
                "called match pattern must be a type",
            )
            .into());
        }
        if !is_instance(subject, class)? {
            return Ok(false);
        }
        let mut seen: Vec<String> = Vec::new();
        if !arguments.patterns.is_empty() {
            let names = match class {
                Value::Type(name) if MATCH_SELF.contains(name) => {
                    if arguments.patterns.len() > 1 {
                        return Err(PyException::new(
                            ExcType::TypeError,
                            format!(
                                "{name}() accepts 1 positional sub-pattern ({} given)",
                                arguments.patterns.len()
                            ),
                        )
                        .into());
                    }
                    return self.matches(&arguments.patterns[0], subject).await;
                }
                _ => self.match_args(class, arguments.patterns.len())?,
            };
            for (name, pattern) in names.iter().zip(arguments.patterns.iter()) {
                if !self.matches_attribute(subject, name, pattern).await? {
                    return Ok(false);
                }
            }
            seen = names;
        }
        for keyword in &arguments.keywords {
            let name = keyword.attr.id.as_str();
            if seen.iter().any(|s| s == name) {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{} got multiple sub-patterns for attribute '{name}'",
                        class_name(class)
                    ),
                )
                .into());
            }
            if !self
                .matches_attribute(subject, name, &keyword.pattern)
                .await?
            {
                return Ok(false);
            }
            seen.push(name.to_owned());
        }
        Ok(true)
    }

    /// The attribute names a class pattern's positional sub-patterns stand for.
    fn match_args(&mut self, class: &Value, given: usize) -> Result<Vec<String>, Flow> {
        let names = match &self.get_attribute(class, "__match_args__") {
            Ok(Value::Tuple(names)) => names
                .iter()
                .map(|n| match n {
                    Value::Str(s) => Ok(s.to_string()),
                    other => Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "__match_args__ elements must be strings (got {})",
                            other.type_name()
                        ),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()?,
            Ok(other) => {
                return Err(PyException::new(
                    ExcType::TypeError,
                    format!(
                        "{}.__match_args__ must be a tuple (got {})",
                        class_name(class),
                        other.type_name()
                    ),
                )
                .into());
            }
            Err(_) => Vec::new(),
        };
        if given > names.len() {
            return Err(PyException::new(
                ExcType::TypeError,
                format!(
                    "{}() accepts {} positional sub-pattern{} ({given} given)",
                    class_name(class),
                    names.len(),
                    if names.len() == 1 { "" } else { "s" }
                ),
            )
            .into());
        }
        Ok(names)
    }

    /// Whether `subject.name` exists and matches `pattern`.
    async fn matches_attribute(
        &mut self,
        subject: &Value,
        name: &str,
        pattern: &Pattern,
    ) -> Result<bool, Flow> {
        match self.attribute(subject, name).await {
            Ok(value) => self.matches(pattern, &value).await,
            Err(Flow::Error(e)) if e.kind == ExcType::AttributeError => Ok(false),
            Err(other) => Err(other),
        }
    }
}

fn class_name(class: &Value) -> String {
    match class {
        Value::Class(c) => c.name.to_string(),
        other => other.str_text(),
    }
}

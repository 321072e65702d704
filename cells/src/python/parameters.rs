//! Binding a call's arguments to a Python function's parameters, as CPython 3.11 does it
//! (`initialize_locals` in ceval.c), with its errors word for word: keywords first (unknown,
//! positional-only, given twice), then too many positional arguments, then missing ones. Learners'
//! functions and the torch bindings written in Python (`nn.Linear.__init__`, `F.relu`) both bind
//! through here.

use super::exception::{ExcType, PyException};
use super::value::Value;

/// What binding needs to know of a parameter.
pub trait Parameter {
    fn name(&self) -> &str;
    fn has_default(&self) -> bool;
    fn keyword_only(&self) -> bool;
    fn positional_only(&self) -> bool;
}

/// The arguments of a call, each in its parameter's slot (`None`: not given, for the caller to
/// fill with the default), and what `*args` and `**kwargs` collect.
pub struct Slots {
    pub values: Vec<Option<Value>>,
    pub rest: Vec<Value>,
    pub extra_keywords: Vec<(String, Value)>,
}

/// Binds `positional` and `keywords` to `params` (positional and keyword-only, in order) of the
/// function CPython calls `qualname`; `self` of a method is the first positional argument.
pub fn bind<P: Parameter>(
    qualname: &str,
    params: &[P],
    var_positional: bool,
    var_keyword: bool,
    positional: Vec<Value>,
    keywords: Vec<(String, Value)>,
) -> Result<Slots, PyException> {
    let argcount = params.iter().filter(|p| !p.keyword_only()).count();
    let given = positional.len();
    let mut values: Vec<Option<Value>> = Vec::with_capacity(params.len());
    values.resize_with(params.len(), || None);
    let mut rest = Vec::new();
    for (i, value) in positional.into_iter().enumerate() {
        if i < argcount {
            values[i] = Some(value);
        } else {
            rest.push(value);
        }
    }
    let mut extra_keywords = Vec::new();
    let mut keywords = keywords.into_iter();
    while let Some((key, value)) = keywords.next() {
        let at = params
            .iter()
            .position(|p| !p.positional_only() && p.name() == key);
        let Some(at) = at else {
            if var_keyword {
                extra_keywords.push((key, value));
                continue;
            }
            // CPython names every positional-only parameter passed by keyword at once (those
            // before this one matched other parameters).
            let rest = keywords.as_slice();
            let passed: Vec<&str> = params
                .iter()
                .filter(|p| {
                    p.positional_only()
                        && (p.name() == key || rest.iter().any(|(k, _)| k == p.name()))
                })
                .map(Parameter::name)
                .collect();
            if !passed.is_empty() {
                return Err(type_error(format!(
                    "{qualname}() got some positional-only arguments passed as keyword arguments: '{}'",
                    passed.join(", ")
                )));
            }
            return Err(type_error(format!(
                "{qualname}() got an unexpected keyword argument '{key}'"
            )));
        };
        if values[at].is_some() {
            return Err(type_error(format!(
                "{qualname}() got multiple values for argument '{key}'"
            )));
        }
        values[at] = Some(value);
    }
    if given > argcount && !var_positional {
        let defaults = params
            .iter()
            .filter(|p| !p.keyword_only() && p.has_default())
            .count();
        let kwonly_given = params
            .iter()
            .zip(&values)
            .filter(|(p, v)| p.keyword_only() && v.is_some())
            .count();
        let (sig, plural) = if defaults > 0 {
            (format!("from {} to {argcount}", argcount - defaults), true)
        } else {
            (argcount.to_string(), argcount != 1)
        };
        let kwonly = if kwonly_given > 0 {
            format!(
                " positional argument{} (and {kwonly_given} keyword-only argument{})",
                if given != 1 { "s" } else { "" },
                if kwonly_given != 1 { "s" } else { "" }
            )
        } else {
            String::new()
        };
        return Err(type_error(format!(
            "{qualname}() takes {sig} positional argument{} but {given}{kwonly} {} given",
            if plural { "s" } else { "" },
            if given == 1 && kwonly_given == 0 {
                "was"
            } else {
                "were"
            }
        )));
    }
    for keyword_only in [false, true] {
        let missing: Vec<&str> = params
            .iter()
            .zip(&values)
            .filter(|(p, v)| p.keyword_only() == keyword_only && !p.has_default() && v.is_none())
            .map(|(p, _)| p.name())
            .collect();
        if !missing.is_empty() {
            return Err(type_error(format!(
                "{qualname}() missing {} required {} argument{}: {}",
                missing.len(),
                if keyword_only {
                    "keyword-only"
                } else {
                    "positional"
                },
                if missing.len() == 1 { "" } else { "s" },
                names_list(&missing)
            )));
        }
    }
    Ok(Slots {
        values,
        rest,
        extra_keywords,
    })
}

/// `'a'`, `'a' and 'b'`, `'a', 'b', and 'c'`, as CPython lists missing arguments.
fn names_list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    match quoted.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., a, b] => format!("{}, {a}, and {b}", init.join(", ")),
        [] => String::new(),
    }
}

fn type_error(message: String) -> PyException {
    PyException::new(ExcType::TypeError, message)
}

impl Parameter for crate::torch::signature::Param {
    fn name(&self) -> &str {
        self.name
    }
    fn has_default(&self) -> bool {
        self.optional
    }
    fn keyword_only(&self) -> bool {
        self.keyword_only
    }
    fn positional_only(&self) -> bool {
        self.positional_only
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct P(&'static str, bool, bool, bool);

    impl Parameter for P {
        fn name(&self) -> &str {
            self.0
        }
        fn has_default(&self) -> bool {
            self.1
        }
        fn keyword_only(&self) -> bool {
            self.2
        }
        fn positional_only(&self) -> bool {
            self.3
        }
    }

    fn error(params: &[P], positional: usize, keywords: &[&str]) -> String {
        let keywords = keywords
            .iter()
            .map(|k| (k.to_string(), Value::Int(1)))
            .collect();
        match bind(
            "f",
            params,
            false,
            false,
            vec![Value::Int(0); positional],
            keywords,
        ) {
            Ok(_) => "ok".into(),
            Err(e) => e.message,
        }
    }

    #[test]
    fn errors_read_as_cpythons() {
        let abc = [
            P("a", false, false, false),
            P("b", false, false, false),
            P("c", false, false, false),
        ];
        assert_eq!(
            error(&abc, 0, &[]),
            "f() missing 3 required positional arguments: 'a', 'b', and 'c'"
        );
        assert_eq!(
            error(&abc, 1, &[]),
            "f() missing 2 required positional arguments: 'b' and 'c'"
        );
        assert_eq!(
            error(&abc, 4, &[]),
            "f() takes 3 positional arguments but 4 were given"
        );
        assert_eq!(
            error(&abc, 1, &["a"]),
            "f() got multiple values for argument 'a'"
        );
        let with_default = [P("a", false, false, false), P("b", true, false, false)];
        assert_eq!(
            error(&with_default, 3, &[]),
            "f() takes from 1 to 2 positional arguments but 3 were given"
        );
        let kwonly = [P("a", false, false, false), P("k", false, true, false)];
        assert_eq!(
            error(&kwonly, 2, &["k"]),
            "f() takes 1 positional argument but 2 positional arguments (and 1 keyword-only argument) were given"
        );
        assert_eq!(
            error(&kwonly, 1, &[]),
            "f() missing 1 required keyword-only argument: 'k'"
        );
        let posonly = [P("a", false, false, true)];
        assert_eq!(
            error(&posonly, 0, &["a"]),
            "f() got some positional-only arguments passed as keyword arguments: 'a'"
        );
        assert_eq!(
            error(&posonly, 1, &["z"]),
            "f() got an unexpected keyword argument 'z'"
        );
    }
}

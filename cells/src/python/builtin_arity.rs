//! How many arguments each builtin function takes, declared once, and CPython's words when a
//! call gives another number (or keywords to one that takes none): checked before any builtin
//! runs, so that no builtin ignores an argument it was given.

use super::args::Args;
use super::exception::{ExcType, PyException};

/// How CPython's C code counts a builtin's arguments; each way words its errors its own way.
#[derive(Clone, Copy)]
enum Takes {
    /// One positional argument (`METH_O`): `len() takes exactly one argument (2 given)`.
    One,
    /// Positional arguments, checked by `_PyArg_CheckPositional`: `divmod expected 2
    /// arguments, got 1`, `iter expected at most 2 arguments, got 3`.
    Expected { min: usize, max: usize },
    /// Parsed with keywords (`PyArg_ParseTupleAndKeywords` or Argument Clinic): `int() takes at
    /// most 2 arguments (3 given)`; `missing[n]` is the error when only `n` are given (keywords
    /// count: `pow(2, exp=3)`).
    AtMost {
        max: usize,
        missing: &'static [&'static str],
    },
    /// Its own words: `type() takes 1 or 3 arguments`, `object() takes no arguments`.
    Worded {
        counts: &'static [usize],
        message: &'static str,
    },
}

/// A builtin's arity: how it takes its arguments, and the keywords it takes.
struct Arity {
    name: &'static str,
    takes: Takes,
    keywords: Keywords,
}

/// The keyword arguments a builtin takes.
#[derive(Clone, Copy)]
enum Keywords {
    None,
    These(&'static [&'static str]),
    /// Its positional parameters that may be passed by keyword too, in order (`""` for one
    /// that may not): `round(number=2.5)` is `round(2.5)`.
    Positional(&'static [&'static str]),
    /// `dict(a=1)`: every keyword is an item.
    Any,
}

const NONE: Keywords = Keywords::None;

const fn one(name: &'static str) -> Arity {
    Arity {
        name,
        takes: Takes::One,
        keywords: NONE,
    }
}

const fn expected(name: &'static str, min: usize, max: usize, keywords: Keywords) -> Arity {
    Arity {
        name,
        takes: Takes::Expected { min, max },
        keywords,
    }
}

const fn at_most(
    name: &'static str,
    max: usize,
    missing: &'static [&'static str],
    keywords: &'static [&'static str],
) -> Arity {
    let keywords = match keywords {
        [] => Keywords::None,
        named => Keywords::Positional(named),
    };
    Arity {
        name,
        takes: Takes::AtMost { max, missing },
        keywords,
    }
}

const fn worded(name: &'static str, counts: &'static [usize], message: &'static str) -> Arity {
    Arity {
        name,
        takes: Takes::Worded { counts, message },
        keywords: NONE,
    }
}

/// No upper bound (`max(1, 2, 3, …)`).
const ANY: usize = usize::MAX;

/// CPython 3.11's builtins, as `Python/bltinmodule.c` and the types' constructors declare them,
/// sorted by name (found by binary search on every builtin call).
const ARITIES: &[Arity] = &[
    one("abs"),
    one("all"),
    one("any"),
    one("ascii"),
    one("bin"),
    expected("bool", 0, 1, NONE),
    at_most("bytes", 3, &[], &["source", "encoding", "errors"]),
    one("callable"),
    one("chr"),
    at_most("complex", 2, &[], &["real", "imag"]),
    expected("delattr", 2, 2, NONE),
    expected("dict", 0, 1, Keywords::Any),
    expected("dir", 0, 1, NONE),
    expected("divmod", 2, 2, NONE),
    at_most(
        "enumerate",
        2,
        &["enumerate() missing required argument 'iterable'"],
        &["iterable", "start"],
    ),
    expected("filter", 2, 2, NONE),
    expected("float", 0, 1, NONE),
    expected("format", 1, 2, NONE),
    expected("getattr", 2, 3, NONE),
    expected("hasattr", 2, 2, NONE),
    one("hash"),
    one("hex"),
    one("id"),
    at_most("int", 2, &[], &["", "base"]),
    expected("isinstance", 2, 2, NONE),
    expected("issubclass", 2, 2, NONE),
    expected("iter", 1, 2, NONE),
    one("len"),
    expected("list", 0, 1, NONE),
    at_most(
        "map",
        ANY,
        &[
            "map() must have at least two arguments.",
            "map() must have at least two arguments.",
        ],
        &[],
    ),
    expected("max", 1, ANY, Keywords::These(&["key", "default"])),
    expected("min", 1, ANY, Keywords::These(&["key", "default"])),
    expected("next", 1, 2, NONE),
    worded("object", &[0], "object() takes no arguments"),
    one("oct"),
    one("ord"),
    at_most(
        "pow",
        3,
        &[
            "pow() missing required argument 'base' (pos 1)",
            "pow() missing required argument 'exp' (pos 2)",
        ],
        &["base", "exp", "mod"],
    ),
    expected("range", 1, 3, NONE),
    one("repr"),
    expected("reversed", 1, 1, NONE),
    at_most(
        "round",
        2,
        &["round() missing required argument 'number' (pos 1)"],
        &["number", "ndigits"],
    ),
    expected("set", 0, 1, NONE),
    expected("setattr", 3, 3, NONE),
    expected("sorted", 1, 1, Keywords::These(&["key", "reverse"])),
    at_most("str", 3, &[], &["object", "encoding", "errors"]),
    at_most(
        "sum",
        2,
        &["sum() takes at least 1 positional argument (0 given)"],
        &["", "start"],
    ),
    expected("tuple", 0, 1, NONE),
    worded("type", &[1, 3], "type() takes 1 or 3 arguments"),
    expected("vars", 0, 1, NONE),
    expected("zip", 0, ANY, Keywords::These(&["strict"])),
];

/// Checks a call of the builtin `name` against its declared arity (a builtin not declared here
/// checks its own arguments), and passes the positional parameters given by keyword
/// positionally, so that each builtin reads its arguments in one place.
pub(crate) fn check(name: &str, args: &mut Args) -> Result<(), PyException> {
    let Ok(at) = ARITIES.binary_search_by(|a| a.name.cmp(name)) else {
        return Ok(());
    };
    let arity = &ARITIES[at];
    let error = |message: String| Err(PyException::new(ExcType::TypeError, message));
    match (arity.keywords, args.keywords.first()) {
        (Keywords::None, Some(_)) => {
            return error(format!("{name}() takes no keyword arguments"));
        }
        (Keywords::These(known) | Keywords::Positional(known), Some(_)) => {
            if let Some((key, _)) = args.keywords.iter().find(|(k, _)| !known.contains(&&**k)) {
                // `sorted` passes its keywords on to `list.sort`, which names itself.
                let function = if name == "sorted" { "sort" } else { name };
                return error(format!(
                    "'{key}' is an invalid keyword argument for {function}()"
                ));
            }
        }
        _ => {}
    }
    if let Keywords::Positional(names) = arity.keywords {
        positionally(names, args);
    }
    let positional = args.positional.len();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    match arity.takes {
        Takes::One if positional != 1 => error(format!(
            "{name}() takes exactly one argument ({positional} given)"
        )),
        Takes::Expected { min, max } if min == max && positional != min => error(format!(
            "{name} expected {min} argument{}, got {positional}",
            plural(min)
        )),
        Takes::Expected { min, .. } if positional < min => error(format!(
            "{name} expected at least {min} argument{}, got {positional}",
            plural(min)
        )),
        Takes::Expected { max, .. } if positional > max => error(format!(
            "{name} expected at most {max} argument{}, got {positional}",
            plural(max)
        )),
        Takes::AtMost { max, missing } => {
            let given = positional.saturating_add(args.keywords.len());
            if given > max {
                error(format!(
                    "{name}() takes at most {max} arguments ({given} given)"
                ))
            } else if let Some(message) = missing.get(given) {
                error((*message).to_owned())
            } else {
                Ok(())
            }
        }
        Takes::Worded { counts, message } if !counts.contains(&positional) => {
            error(message.to_owned())
        }
        _ => Ok(()),
    }
}

/// Moves the keywords that name positional parameters into their places, in order, as far as
/// no place before them is empty (`complex(imag=3)` keeps its keyword, which `complex` reads).
fn positionally(names: &[&str], args: &mut Args) {
    for name in names.iter().skip(args.positional.len()) {
        match args.keywords.iter().position(|(k, _)| k == name) {
            Some(at) if !name.is_empty() => {
                let (_, value) = args.keywords.remove(at);
                args.positional.push(value);
            }
            _ => break,
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_table_is_sorted_by_name_for_its_binary_search() {
        assert!(super::ARITIES.windows(2).all(|w| w[0].name < w[1].name));
    }
}

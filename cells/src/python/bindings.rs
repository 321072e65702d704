//! The names a cell binds in the notebook's namespace, read from its source without running it:
//! what a `NameError` in a later cell needs run first ("this cell uses `x` from cell 2").
//!
//! Binding is what Python calls it: assignment targets, `for` and `with … as` targets, imports,
//! `def` and `class`, `except … as`, at the cell's top level or inside its `if`/`for`/`while`/
//! `with`/`try` blocks (which share the module's namespace); not inside functions or classes.

use ruff_python_ast::{ExceptHandler, Expr, Stmt};

/// Whether `source` binds `name` at its top level. A cell that does not parse binds nothing.
pub fn binds(source: &str, name: &str) -> bool {
    let Ok(parsed) = ruff_python_parser::parse_module(source) else {
        return false;
    };
    let mut bound = Vec::new();
    statements(&parsed.syntax().body, &mut bound);
    bound.iter().any(|b| b == name)
}

fn statements(body: &[Stmt], bound: &mut Vec<String>) {
    for stmt in body {
        match stmt {
            Stmt::Assign(a) => a.targets.iter().for_each(|t| target(t, bound)),
            Stmt::AugAssign(a) => target(&a.target, bound),
            Stmt::AnnAssign(a) => target(&a.target, bound),
            Stmt::FunctionDef(def) => bound.push(def.name.id.to_string()),
            Stmt::ClassDef(def) => bound.push(def.name.id.to_string()),
            Stmt::Import(import) => {
                for alias in &import.names {
                    let name = alias.name.id.as_str();
                    // `import torch.nn` binds `torch`.
                    bound.push(match &alias.asname {
                        Some(asname) => asname.id.to_string(),
                        None => name.split('.').next().unwrap_or(name).to_owned(),
                    });
                }
            }
            Stmt::ImportFrom(import) => bound.extend(
                import
                    .names
                    .iter()
                    .map(|alias| alias.asname.as_ref().unwrap_or(&alias.name).id.to_string()),
            ),
            Stmt::For(s) => {
                target(&s.target, bound);
                statements(&s.body, bound);
                statements(&s.orelse, bound);
            }
            Stmt::While(s) => {
                statements(&s.body, bound);
                statements(&s.orelse, bound);
            }
            Stmt::If(s) => {
                statements(&s.body, bound);
                for clause in &s.elif_else_clauses {
                    statements(&clause.body, bound);
                }
            }
            Stmt::With(w) => {
                for item in &w.items {
                    if let Some(vars) = &item.optional_vars {
                        target(vars, bound);
                    }
                }
                statements(&w.body, bound);
            }
            Stmt::Try(t) => {
                statements(&t.body, bound);
                for handler in &t.handlers {
                    let ExceptHandler::ExceptHandler(h) = handler;
                    if let Some(name) = &h.name {
                        bound.push(name.id.to_string());
                    }
                    statements(&h.body, bound);
                }
                statements(&t.orelse, bound);
                statements(&t.finalbody, bound);
            }
            _ => {}
        }
    }
}

/// The names an assignment target binds (`a`, `a, (b, *c)`; not `a.b` or `a[0]`).
fn target(expr: &Expr, bound: &mut Vec<String>) {
    match expr {
        Expr::Name(n) => bound.push(n.id.to_string()),
        Expr::Tuple(t) => t.elts.iter().for_each(|e| target(e, bound)),
        Expr::List(l) => l.elts.iter().for_each(|e| target(e, bound)),
        Expr::Starred(s) => target(&s.value, bound),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::binds;

    #[test]
    fn assignments_imports_definitions_and_block_targets_bind() {
        let cell = "import torch.nn as nn\nimport torch\nfrom os import environ as env\n\
                    a, (b, *c) = 1, (2, 3)\nx: int = 1\ny += 1\ndef f(p):\n    inner = p\n\
                    class M: pass\nfor i in range(2):\n    if i:\n        z = i\n\
                    with open('f') as fh:\n    pass\ntry:\n    pass\nexcept E as err:\n    w = 1\n\
                    obj.attr = 1\nitems[0] = 1\n";
        for name in [
            "nn", "torch", "env", "a", "b", "c", "x", "y", "f", "M", "i", "z", "fh", "err", "w",
        ] {
            assert!(binds(cell, name), "{name}");
        }
        for name in ["inner", "p", "obj", "attr", "items", "environ", "os"] {
            assert!(!binds(cell, name), "{name}");
        }
    }

    #[test]
    fn a_cell_that_does_not_parse_binds_nothing() {
        assert!(!binds("x = (", "x"));
    }
}

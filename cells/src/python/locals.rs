//! Which names are a function's locals, as CPython's compiler decides them: every name its
//! body binds (assignment, `for`, `with … as`, `except … as`, `import`, `def`, `class`, `del`,
//! `match` captures, `:=`), less those it declares `global` or `nonlocal`. Reading one before
//! it is bound is `UnboundLocalError`, not a read of the global of that name.

use ruff_python_ast::visitor::{self, Visitor};
use ruff_python_ast::{ExceptHandler, Expr, ExprContext, Pattern, Stmt};
use rustc_hash::FxHashSet;

/// The local names of a function with this body.
pub(crate) fn local_names(body: &[Stmt]) -> FxHashSet<String> {
    let mut binder = Binder::default();
    for stmt in body {
        binder.visit_stmt(stmt);
    }
    let Binder { bound, declared } = binder;
    bound
        .into_iter()
        .filter(|n| !declared.contains(n))
        .collect()
}

#[derive(Default)]
struct Binder {
    bound: FxHashSet<String>,
    declared: FxHashSet<String>,
}

impl<'a> Visitor<'a> for Binder {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        match stmt {
            // A nested function or class binds its name here; its body is its own scope, but
            // its decorators, defaults and bases are evaluated here.
            Stmt::FunctionDef(f) => {
                self.bound.insert(f.name.id.to_string());
                for decorator in &f.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                for parameter in f.parameters.iter_non_variadic_params() {
                    if let Some(default) = &parameter.default {
                        self.visit_expr(default);
                    }
                }
                return;
            }
            Stmt::ClassDef(c) => {
                self.bound.insert(c.name.id.to_string());
                for decorator in &c.decorator_list {
                    self.visit_expr(&decorator.expression);
                }
                if let Some(arguments) = &c.arguments {
                    for arg in arguments.args.iter() {
                        self.visit_expr(arg);
                    }
                }
                return;
            }
            Stmt::Global(g) => self
                .declared
                .extend(g.names.iter().map(|n| n.id.to_string())),
            Stmt::Nonlocal(n) => self
                .declared
                .extend(n.names.iter().map(|n| n.id.to_string())),
            Stmt::Import(i) => {
                for alias in &i.names {
                    let name = match &alias.asname {
                        Some(asname) => asname.id.to_string(),
                        None => alias.name.id.split('.').next().unwrap_or("").to_owned(),
                    };
                    self.bound.insert(name);
                }
            }
            Stmt::ImportFrom(i) => {
                for alias in &i.names {
                    let name = alias.asname.as_ref().unwrap_or(&alias.name);
                    if name.id.as_str() != "*" {
                        self.bound.insert(name.id.to_string());
                    }
                }
            }
            _ => {}
        }
        visitor::walk_stmt(self, stmt);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Name(n) if matches!(n.ctx, ExprContext::Store | ExprContext::Del) => {
                self.bound.insert(n.id.to_string());
            }
            // A lambda's body and a comprehension's variables are scopes of their own; only a
            // `:=` inside a comprehension binds here.
            Expr::Lambda(_) => return,
            Expr::ListComp(_) | Expr::SetComp(_) | Expr::DictComp(_) | Expr::Generator(_) => {
                let mut walruses = Walruses(&mut self.bound);
                visitor::walk_expr(&mut walruses, expr);
                return;
            }
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }

    fn visit_except_handler(&mut self, handler: &'a ExceptHandler) {
        let ExceptHandler::ExceptHandler(h) = handler;
        if let Some(name) = &h.name {
            self.bound.insert(name.id.to_string());
        }
        visitor::walk_except_handler(self, handler);
    }

    fn visit_pattern(&mut self, pattern: &'a Pattern) {
        match pattern {
            Pattern::MatchAs(p) => self.bound.extend(p.name.iter().map(|n| n.id.to_string())),
            Pattern::MatchStar(p) => self.bound.extend(p.name.iter().map(|n| n.id.to_string())),
            Pattern::MatchMapping(p) => self.bound.extend(p.rest.iter().map(|n| n.id.to_string())),
            _ => {}
        }
        visitor::walk_pattern(self, pattern);
    }
}

/// The `:=` targets inside a comprehension (which bind in the function around it).
struct Walruses<'b>(&'b mut FxHashSet<String>);

impl<'a> Visitor<'a> for Walruses<'_> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        match expr {
            Expr::Named(n) => {
                if let Expr::Name(name) = &*n.target {
                    self.0.insert(name.id.to_string());
                }
            }
            Expr::Lambda(_) => return,
            _ => {}
        }
        visitor::walk_expr(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locals_of(source: &str) -> Vec<String> {
        let module = ruff_python_parser::parse_module(source)
            .unwrap()
            .into_syntax();
        let mut names: Vec<String> = local_names(&module.body).into_iter().collect();
        names.sort();
        names
    }

    #[test]
    fn bound_names_are_locals_and_declared_ones_are_not() {
        let source = "total = total + 1\nfor i, (j, k) in x: pass\nwith a as b: pass\n\
                      try: pass\nexcept E as err: pass\nimport os.path\nfrom m import n as o\n\
                      def f(): inner = 1\nglobal g\ng = 2\ny = [z for z in w if (v := z)]\n\
                      del q\nlambda p: p\n";
        assert_eq!(
            locals_of(source),
            [
                "b", "err", "f", "i", "j", "k", "o", "os", "q", "total", "v", "y"
            ]
        );
    }
}

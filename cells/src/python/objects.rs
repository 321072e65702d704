//! Learners' classes: defining one (with inheritance from a cell class, `object`,
//! `nn.Module` or `Dataset`), making instances, and reading and setting attributes of objects
//! with behaviour (an instance of an `nn.Module` subclass keeps its parameters, buffers and
//! children in its engine module, as PyTorch's `Module.__setattr__` does).

use std::cell::RefCell;
use std::rc::Rc;

use ruff_python_ast::StmtClassDef;
use tolab_engine::nn::{Assign, Module};

use super::args::{Args, Flow};
use super::exception::{ExcType, PyException};
use super::interpreter::Interpreter;
use super::value::{Class, Instance, Names, Value};

type Result<T> = std::result::Result<T, PyException>;

impl Interpreter {
    /// `class Name(Base): ...`: methods and class attributes from the body.
    pub(crate) async fn define_class(
        &mut self,
        def: &StmtClassDef,
    ) -> std::result::Result<(), Flow> {
        let mut base = None;
        let mut is_module = false;
        let mut builtin_base = None;
        if let Some(arguments) = &def.arguments {
            for expr in arguments.args.iter() {
                match &self.expr(expr).await? {
                    Value::Class(c) => {
                        is_module |= c.is_module;
                        base = Some(c.clone());
                    }
                    Value::NnClass("Module") => is_module = true,
                    Value::Type(name @ ("object" | "torch.utils.data.Dataset")) => {
                        builtin_base = Some(*name);
                    }
                    other => {
                        return Err(PyException::unsupported(&format!(
                            "deriving from {}",
                            other.repr()
                        ))
                        .into());
                    }
                }
            }
        }
        let class = Rc::new(Class {
            name: def.name.id.to_string(),
            base,
            is_module,
            builtin_base,
            namespace: RefCell::new(Names::default()),
        });
        let namespace = self.run_class_body(&def.body).await?;
        *class.namespace.borrow_mut() = namespace;
        self.set_name(def.name.id.as_str(), Value::Class(class));
        Ok(())
    }

    /// Calling a cell class: a new instance, initialised by the nearest `__init__`.
    pub(crate) async fn instantiate(
        &mut self,
        class: &Rc<Class>,
        args: Args,
    ) -> std::result::Result<Value, Flow> {
        let instance = Rc::new(Instance {
            class: class.clone(),
            attributes: RefCell::new(Names::default()),
            module: class.is_module.then(|| Module::custom(&class.name)),
        });
        if let Some(module) = &instance.module {
            self.instances.insert(module.id(), instance.clone());
        }
        let object = Value::Instance(instance);
        if let Some(Value::Function(ref init)) = class.lookup("__init__") {
            let mut positional = vec![object.clone()];
            positional.extend(args.positional);
            self.call_function_of(
                init,
                class.clone(),
                Args {
                    positional,
                    keywords: args.keywords,
                },
            )
            .await?;
        }
        Ok(object)
    }

    /// `obj.name` for objects with behaviour (learners' instances and classes, modules,
    /// `super()`); everything else through [`super::methods::get`].
    pub(crate) fn get_attribute(&mut self, owner: &Value, name: &str) -> Result<Value> {
        if let Value::Module(module) = owner
            && let Some(default) = crate::torch::backend_flag(module, name)
        {
            let set = self.backend_flags.get(&format!("{module}.{name}")).cloned();
            return Ok(set.unwrap_or(default));
        }
        match owner {
            Value::Instance(instance) => {
                if let Some(v) = instance.attributes.borrow().get(name) {
                    return Ok(v.clone());
                }
                if let Some(module) = &instance.module
                    && let Some(member) = module.member(name)
                {
                    return Ok(self.member_value(member));
                }
                let found = instance.class.lookup(name);
                if let Some(method) = class_method(found.as_ref(), &instance.class) {
                    return Ok(method);
                }
                match &found {
                    Some(Value::Function(f)) => {
                        Ok(Value::BoundMethod(Box::new(owner.clone()), f.clone()))
                    }
                    Some(_) => Ok(found.unwrap_or(Value::None)),
                    None => instance
                        .module
                        .as_ref()
                        .and_then(|module| self.module_attribute(module, owner, name))
                        .ok_or_else(|| {
                            PyException::new(
                                ExcType::AttributeError,
                                format!(
                                    "'{}' object has no attribute '{name}'",
                                    instance.class.name
                                ),
                            )
                        }),
                }
            }
            Value::NnModule(module) => {
                self.module_attribute(module, owner, name).ok_or_else(|| {
                    crate::torch::no_attribute(
                        "torch.nn.Module",
                        &format!("'{}' object", module.class_name()),
                        name,
                    )
                })
            }
            Value::Super(object, class) => {
                let found = class.base.as_ref().and_then(|b| b.lookup(name));
                match &found {
                    Some(Value::Function(f)) => Ok(Value::BoundMethod(object.clone(), f.clone())),
                    Some(_) => Ok(found.unwrap_or(Value::None)),
                    // `super().__init__()` of nn.Module: the module exists already.
                    None if name == "__init__" => Ok(Value::Builtin("__noop__")),
                    // A method of the built-in base (`super().to(device)`,
                    // `super().state_dict()`), on the object itself.
                    None => crate::torch::bound("torch.nn.Module", name, Some(object))
                        .filter(|_| matches!(&**object, Value::Instance(i) if i.module.is_some()))
                        .ok_or_else(|| super_lacks(name)),
                }
            }
            Value::Module("os") if name == "environ" => Ok(Value::Environ(self.session.clone())),
            Value::Class(class)
                if let Some(method) = class_method(class.lookup(name).as_ref(), class) =>
            {
                Ok(method)
            }
            Value::Class(class) if name != "__name__" => class.lookup(name).ok_or_else(|| {
                PyException::new(
                    ExcType::AttributeError,
                    format!("type object '{}' has no attribute '{name}'", class.name),
                )
            }),
            other => super::methods::get(other, name),
        }
    }

    /// `obj.name = value`.
    pub(crate) fn set_attribute(&mut self, owner: &Value, name: &str, value: Value) -> Result<()> {
        if let Value::Module(module) = owner
            && crate::torch::backend_flag(module, name).is_some()
        {
            self.backend_flags
                .insert(format!("{module}.{name}"), Value::Bool(value.truthy()));
            return Ok(());
        }
        if let Value::Tensor(_) | Value::Parameter(_) = owner
            && let Value::Tensor(tensor) = &*owner.resolved()
        {
            return crate::torch::tensor::set_attribute(tensor, name, value);
        }
        let Value::Instance(instance) = owner else {
            return Err(PyException::new(
                ExcType::AttributeError,
                format!(
                    "'{}' object attribute '{name}' is read-only",
                    owner.type_name()
                ),
            ));
        };
        if let Some(module) = &instance.module {
            let assign = match &value {
                Value::Parameter(p) => Assign::Parameter(p.clone()),
                Value::NnModule(m) => Assign::Module(m.clone()),
                Value::Instance(i) if i.module.is_some() => {
                    Assign::Module(i.module.clone().unwrap_or_else(|| Module::custom("?")))
                }
                Value::Tensor(t) => Assign::Tensor(t.clone()),
                Value::None => Assign::None,
                other => Assign::Other(other.type_name()),
            };
            if module.assign(name, assign)? {
                instance.attributes.borrow_mut().remove(name);
                return Ok(());
            }
        }
        instance
            .attributes
            .borrow_mut()
            .insert(name.to_owned(), value);
        Ok(())
    }
}

fn super_lacks(name: &str) -> PyException {
    PyException::new(
        ExcType::AttributeError,
        format!("'super' object has no attribute '{name}'"),
    )
}

/// A `@classmethod` found on `class` (or on the class of an object), bound to that class.
fn class_method(found: Option<&Value>, class: &Rc<Class>) -> Option<Value> {
    let Some(Value::Wrapped(wrapped)) = found else {
        return None;
    };
    let super::value::Wrapped::ClassMethod(Value::Function(f)) = &**wrapped else {
        return None;
    };
    Some(Value::BoundMethod(
        Box::new(Value::Class(class.clone())),
        f.clone(),
    ))
}

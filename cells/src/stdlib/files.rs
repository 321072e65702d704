//! The file system calls under `open`, `os`, `os.path`, `pathlib`, `glob` and `shutil`
//! (`py/io.py`, `py/os.py`, … reach them as `_lab.fs_*`), on the notebook's files: in memory in
//! the browser, the working directory for the CLI. Text is UTF-8; binary files are bytes. Failures are CPython's
//! `OSError` subclasses with their errno, strerror and filename (`FileNotFoundError: [Errno 2]
//! No such file or directory: 'x.txt'`).

use tolab_engine::error::{Error, strerror};
use tolab_engine::files::{Entry, Files, errno};

use crate::python::args::Args;
use crate::python::exception::{ExcType, PyException};
use crate::python::value::Value;

type Result<T> = std::result::Result<T, PyException>;

/// The `_lab` functions this module answers.
pub const NATIVES: &[&str] = &[
    "fs_read",
    "fs_write",
    "fs_stat",
    "fs_listdir",
    "fs_mkdir",
    "fs_remove",
    "fs_rmdir",
    "fs_rename",
    "fs_cwd",
];

/// The `OSError` subclass CPython raises for an errno.
fn os_error(errno: i32, path: &str) -> PyException {
    let class = match errno {
        errno::ENOENT => "FileNotFoundError",
        errno::EEXIST => "FileExistsError",
        errno::ENOTDIR => "NotADirectoryError",
        errno::EISDIR => "IsADirectoryError",
        13 => "PermissionError",
        _ => "OSError",
    };
    PyException::with_args(
        ExcType::Other(class.to_owned()),
        vec![
            Value::Int(i64::from(errno)),
            Value::str(strerror(errno)),
            Value::str(path),
        ],
    )
}

fn failed(e: Error, path: &str) -> PyException {
    match e {
        Error::FileNotFound { .. } => os_error(errno::ENOENT, path),
        Error::Os { errno, .. } => os_error(errno, path),
        other => PyException::new(ExcType::Other("OSError".to_owned()), other.to_string()),
    }
}

/// A path argument: `py/` wrappers pass `os.fspath(p)`, a str.
fn path(args: &Args, at: usize) -> Result<String> {
    match args.positional.get(at) {
        Some(Value::Str(s)) => Ok(s.to_string()),
        other => Err(PyException::new(
            ExcType::TypeError,
            format!(
                "expected str, bytes or os.PathLike object, not {}",
                other.map_or_else(|| "NoneType".to_owned(), Value::type_name)
            ),
        )),
    }
}

pub fn call(files: &dyn Files, name: &str, args: &Args) -> Result<Value> {
    let p = path(args, 0);
    Ok(match name {
        "fs_cwd" => Value::str(&files.cwd()),
        // The whole file: text, or bytes when asked (`fs_read(path, True)`).
        "fs_read" => {
            let p = p?;
            let bytes = files.read(&p).map_err(|e| failed(e, &p))?;
            if args.positional.get(1).is_some_and(Value::truthy) {
                return Ok(Value::Bytes(bytes.into()));
            }
            let text = String::from_utf8(bytes).map_err(|e| {
                let at = e.utf8_error().valid_up_to();
                PyException::new(
                    ExcType::Other("UnicodeDecodeError".to_owned()),
                    format!(
                        "'utf-8' codec can't decode byte {:#04x} in position {at}: invalid start byte",
                        e.as_bytes().get(at).copied().unwrap_or_default()
                    ),
                )
            })?;
            Value::str(&text)
        }
        // `fs_write(path, text_or_bytes, append)`.
        "fs_write" => {
            let p = p?;
            let data: Vec<u8> = match args.positional.get(1) {
                Some(Value::Str(s)) => s.as_bytes().to_vec(),
                Some(Value::Bytes(b)) => b.to_vec(),
                other => {
                    return Err(PyException::new(
                        ExcType::TypeError,
                        format!(
                            "write() argument must be str or bytes, not {}",
                            other.map_or_else(|| "NoneType".to_owned(), Value::type_name)
                        ),
                    ));
                }
            };
            let append = args.positional.get(2).is_some_and(Value::truthy);
            let done = if append {
                files.append(&p, &data)
            } else {
                files.write(&p, data)
            };
            done.map_err(|e| failed(e, &p))?;
            Value::None
        }
        // `(is_dir, size)`, or None where nothing is.
        "fs_stat" => match files.entry(&p?) {
            None => Value::None,
            Some(Entry::Dir) => Value::Tuple(vec![Value::Bool(true), Value::Int(4096)].into()),
            Some(Entry::File { size }) => Value::Tuple(
                vec![
                    Value::Bool(false),
                    Value::Int(i64::try_from(size).unwrap_or(i64::MAX)),
                ]
                .into(),
            ),
        },
        "fs_listdir" => {
            let p = p?;
            let names = files.list(&p).map_err(|e| failed(e, &p))?;
            Value::list(names.iter().map(|n| Value::str(n)).collect())
        }
        "fs_mkdir" | "fs_remove" | "fs_rmdir" => {
            let p = p?;
            match name {
                "fs_mkdir" => files.make_dir(&p),
                "fs_remove" => files.remove_file(&p),
                _ => files.remove_dir(&p),
            }
            .map_err(|e| failed(e, &p))?;
            Value::None
        }
        "fs_rename" => {
            let (from, to) = (p?, path(args, 1)?);
            files.rename(&from, &to).map_err(|e| failed(e, &from))?;
            Value::None
        }
        _ => return Err(PyException::unsupported(&format!("_lab.{name}"))),
    })
}

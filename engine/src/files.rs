//! The notebook's file system: what `open`, `os`, `pathlib`, `shutil` and `torch.save` read and
//! write. The host provides it — real files under a working directory natively
//! ([`DiskFiles`]), a tree in memory in the browser ([`MemoryFiles`], one per notebook, its
//! working directory `/lab`). Errors carry the errno CPython would report.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};

use crate::error::Error;

/// The errnos the lab's file operations report, as Linux numbers them.
pub mod errno {
    pub const ENOENT: i32 = 2;
    pub const EEXIST: i32 = 17;
    pub const ENOTDIR: i32 = 20;
    pub const EISDIR: i32 = 21;
    pub const EINVAL: i32 = 22;
    pub const ENOTEMPTY: i32 = 39;
}

/// What is at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    File { size: u64 },
    Dir,
}

/// Where files are read and written. Paths are as the program wrote them: relative ones are
/// under the working directory.
pub trait Files {
    fn read(&self, path: &str) -> Result<Vec<u8>, Error>;
    /// Creates the file or replaces what it held.
    fn write(&self, path: &str, bytes: Vec<u8>) -> Result<(), Error>;
    /// Adds to the end of the file, creating it if need be.
    fn append(&self, path: &str, bytes: &[u8]) -> Result<(), Error>;
    fn entry(&self, path: &str) -> Option<Entry>;
    /// The names in a directory, sorted.
    fn list(&self, dir: &str) -> Result<Vec<String>, Error>;
    fn make_dir(&self, path: &str) -> Result<(), Error>;
    fn remove_file(&self, path: &str) -> Result<(), Error>;
    /// Removes an empty directory.
    fn remove_dir(&self, path: &str) -> Result<(), Error>;
    fn rename(&self, from: &str, to: &str) -> Result<(), Error>;
    /// The working directory, absolute (`os.getcwd()`).
    fn cwd(&self) -> String;
}

fn os_error(errno: i32, path: &str) -> Error {
    if errno == errno::ENOENT {
        return Error::FileNotFound { path: path.into() };
    }
    Error::Os {
        errno,
        path: path.into(),
    }
}

/// Files kept in memory: a tree of absolute paths, the working directory `/lab`.
#[derive(Debug)]
pub struct MemoryFiles {
    files: RefCell<BTreeMap<String, Vec<u8>>>,
    dirs: RefCell<BTreeSet<String>>,
}

const MEMORY_CWD: &str = "/lab";

impl Default for MemoryFiles {
    fn default() -> Self {
        let dirs = ["/", "/lab", "/tmp"].map(String::from).into();
        MemoryFiles {
            files: RefCell::default(),
            dirs: RefCell::new(dirs),
        }
    }
}

/// `path` made absolute and normal: `.` and empty parts dropped, `..` taking one back.
fn absolute(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let joined;
    let path = if path.starts_with('/') {
        path
    } else {
        joined = format!("{MEMORY_CWD}/{path}");
        &joined
    };
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    format!("/{}", parts.join("/"))
}

/// The directory holding an absolute path.
fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(at) => &path[..at],
    }
}

impl MemoryFiles {
    /// The file's absolute path, once its directory is known to exist.
    fn file_path(&self, path: &str) -> Result<String, Error> {
        let at = absolute(path);
        if self.dirs.borrow().contains(&at) {
            return Err(os_error(errno::EISDIR, path));
        }
        let dir = parent(&at);
        if self.files.borrow().contains_key(dir) {
            return Err(os_error(errno::ENOTDIR, path));
        }
        if !self.dirs.borrow().contains(dir) {
            return Err(os_error(errno::ENOENT, path));
        }
        Ok(at)
    }
}

impl Files for MemoryFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, Error> {
        let at = self.file_path(path)?;
        self.files
            .borrow()
            .get(&at)
            .cloned()
            .ok_or_else(|| os_error(errno::ENOENT, path))
    }

    fn write(&self, path: &str, bytes: Vec<u8>) -> Result<(), Error> {
        let at = self.file_path(path)?;
        self.files.borrow_mut().insert(at, bytes);
        Ok(())
    }

    fn append(&self, path: &str, bytes: &[u8]) -> Result<(), Error> {
        let at = self.file_path(path)?;
        self.files
            .borrow_mut()
            .entry(at)
            .or_default()
            .extend_from_slice(bytes);
        Ok(())
    }

    fn entry(&self, path: &str) -> Option<Entry> {
        let at = absolute(path);
        if self.dirs.borrow().contains(&at) {
            return Some(Entry::Dir);
        }
        let files = self.files.borrow();
        files.get(&at).map(|bytes| Entry::File {
            size: bytes.len() as u64,
        })
    }

    fn list(&self, dir: &str) -> Result<Vec<String>, Error> {
        let at = absolute(dir);
        match self.entry(dir) {
            Some(Entry::Dir) => {}
            Some(Entry::File { .. }) => return Err(os_error(errno::ENOTDIR, dir)),
            None => return Err(os_error(errno::ENOENT, dir)),
        }
        let prefix = if at == "/" {
            "/".to_owned()
        } else {
            format!("{at}/")
        };
        let child = |path: &String| {
            let rest = path.strip_prefix(&prefix)?;
            (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_owned())
        };
        let mut names: Vec<String> = self.dirs.borrow().iter().filter_map(child).collect();
        names.extend(self.files.borrow().keys().filter_map(child));
        names.sort();
        Ok(names)
    }

    fn make_dir(&self, path: &str) -> Result<(), Error> {
        let at = absolute(path);
        if self.entry(path).is_some() {
            return Err(os_error(errno::EEXIST, path));
        }
        let dir = parent(&at);
        match self.entry(dir) {
            Some(Entry::Dir) => {}
            Some(Entry::File { .. }) => return Err(os_error(errno::ENOTDIR, path)),
            None => return Err(os_error(errno::ENOENT, path)),
        }
        self.dirs.borrow_mut().insert(at);
        Ok(())
    }

    fn remove_file(&self, path: &str) -> Result<(), Error> {
        let at = self.file_path(path)?;
        match self.files.borrow_mut().remove(&at) {
            Some(_) => Ok(()),
            None => Err(os_error(errno::ENOENT, path)),
        }
    }

    fn remove_dir(&self, path: &str) -> Result<(), Error> {
        let at = absolute(path);
        match self.entry(path) {
            Some(Entry::Dir) if at == "/" || at == MEMORY_CWD => {
                // The working directory stays (`rmdir('.')` is refused on Linux too).
                Err(os_error(errno::ENOTEMPTY, path))
            }
            Some(Entry::Dir) if !self.list(path)?.is_empty() => {
                Err(os_error(errno::ENOTEMPTY, path))
            }
            Some(Entry::Dir) => {
                self.dirs.borrow_mut().remove(&at);
                Ok(())
            }
            Some(Entry::File { .. }) => Err(os_error(errno::ENOTDIR, path)),
            None => Err(os_error(errno::ENOENT, path)),
        }
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), Error> {
        let (source, target) = (absolute(from), absolute(to));
        match self.entry(from) {
            None => Err(os_error(errno::ENOENT, from)),
            Some(Entry::File { .. }) => {
                let target = self.file_path(to)?;
                let bytes = self.files.borrow_mut().remove(&source).unwrap_or_default();
                self.files.borrow_mut().insert(target, bytes);
                Ok(())
            }
            Some(Entry::Dir) => {
                // Into itself is Linux's EINVAL; onto something that exists, EEXIST.
                if target.starts_with(&format!("{source}/")) {
                    return Err(os_error(errno::EINVAL, from));
                }
                if self.entry(to).is_some() {
                    return Err(os_error(errno::EEXIST, to));
                }
                if self.entry(parent(&target)) != Some(Entry::Dir) {
                    return Err(os_error(errno::ENOENT, to));
                }
                // The directory and everything under it move.
                let moved = |path: &str| -> Option<String> {
                    let rest = path.strip_prefix(&source)?;
                    (rest.is_empty() || rest.starts_with('/')).then(|| format!("{target}{rest}"))
                };
                let dirs: Vec<String> = self.dirs.borrow().iter().cloned().collect();
                let mut new_dirs = BTreeSet::new();
                for dir in dirs {
                    new_dirs.insert(moved(&dir).unwrap_or(dir));
                }
                *self.dirs.borrow_mut() = new_dirs;
                let files = std::mem::take(&mut *self.files.borrow_mut());
                *self.files.borrow_mut() = files
                    .into_iter()
                    .map(|(path, bytes)| (moved(&path).unwrap_or(path), bytes))
                    .collect();
                Ok(())
            }
        }
    }

    fn cwd(&self) -> String {
        MEMORY_CWD.to_owned()
    }
}

/// Real files, relative paths under a working directory.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug)]
pub struct DiskFiles {
    pub root: std::path::PathBuf,
}

#[cfg(not(target_arch = "wasm32"))]
impl DiskFiles {
    fn at(&self, path: &str) -> std::path::PathBuf {
        self.root.join(path)
    }
}

/// An I/O error as CPython reports it: its errno and the path it was about.
#[cfg(not(target_arch = "wasm32"))]
fn disk_error(e: std::io::Error, path: &str) -> Error {
    match e.raw_os_error() {
        Some(code) => os_error(code, path),
        None if e.kind() == std::io::ErrorKind::NotFound => os_error(errno::ENOENT, path),
        None => Error::FileAccess {
            path: path.into(),
            reason: e.to_string(),
        },
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Files for DiskFiles {
    fn read(&self, path: &str) -> Result<Vec<u8>, Error> {
        std::fs::read(self.at(path)).map_err(|e| disk_error(e, path))
    }

    fn write(&self, path: &str, bytes: Vec<u8>) -> Result<(), Error> {
        std::fs::write(self.at(path), bytes).map_err(|e| disk_error(e, path))
    }

    fn append(&self, path: &str, bytes: &[u8]) -> Result<(), Error> {
        use std::io::Write;
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(self.at(path))
            .and_then(|mut file| file.write_all(bytes))
            .map_err(|e| disk_error(e, path))
    }

    fn entry(&self, path: &str) -> Option<Entry> {
        let metadata = std::fs::metadata(self.at(path)).ok()?;
        Some(if metadata.is_dir() {
            Entry::Dir
        } else {
            Entry::File {
                size: metadata.len(),
            }
        })
    }

    fn list(&self, dir: &str) -> Result<Vec<String>, Error> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(self.at(dir)).map_err(|e| disk_error(e, dir))? {
            let entry = entry.map_err(|e| disk_error(e, dir))?;
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
        names.sort();
        Ok(names)
    }

    fn make_dir(&self, path: &str) -> Result<(), Error> {
        std::fs::create_dir(self.at(path)).map_err(|e| disk_error(e, path))
    }

    fn remove_file(&self, path: &str) -> Result<(), Error> {
        std::fs::remove_file(self.at(path)).map_err(|e| disk_error(e, path))
    }

    fn remove_dir(&self, path: &str) -> Result<(), Error> {
        std::fs::remove_dir(self.at(path)).map_err(|e| disk_error(e, path))
    }

    fn rename(&self, from: &str, to: &str) -> Result<(), Error> {
        std::fs::rename(self.at(from), self.at(to)).map_err(|e| disk_error(e, from))
    }

    fn cwd(&self) -> String {
        std::fs::canonicalize(&self.root)
            .unwrap_or_else(|_| self.root.clone())
            .to_string_lossy()
            .into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_files_need_their_directory_and_list_one_level() {
        let files = MemoryFiles::default();
        assert!(matches!(
            files.write("runs/a.txt", b"x".to_vec()),
            Err(Error::FileNotFound { .. })
        ));
        files.make_dir("runs").unwrap();
        files.write("runs/a.txt", b"x".to_vec()).unwrap();
        files.append("./runs/a.txt", b"yz").unwrap();
        assert_eq!(files.read("/lab/runs/a.txt").unwrap(), b"xyz");
        files.make_dir("runs/deep").unwrap();
        assert_eq!(files.list("runs").unwrap(), ["a.txt", "deep"]);
        assert_eq!(
            files.entry("runs/../runs/a.txt"),
            Some(Entry::File { size: 3 })
        );
        assert!(matches!(
            files.remove_dir("runs"),
            Err(Error::Os { errno: 39, .. })
        ));
        assert!(matches!(
            files.make_dir("runs"),
            Err(Error::Os { errno: 17, .. })
        ));
    }

    #[test]
    fn renaming_a_directory_moves_what_it_holds() {
        let files = MemoryFiles::default();
        files.make_dir("a").unwrap();
        files.make_dir("a/b").unwrap();
        files.write("a/b/c.txt", b"c".to_vec()).unwrap();
        files.rename("a", "z").unwrap();
        assert_eq!(files.read("z/b/c.txt").unwrap(), b"c");
        assert_eq!(files.entry("a"), None);
        assert_eq!(files.list(".").unwrap(), ["z"]);
    }
}

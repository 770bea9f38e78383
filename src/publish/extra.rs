//! The operator's own files for the site: `PIPELINE/site-extra/` (a search engine's
//! verification file, `.well-known/security.txt`, an icon of their own), copied byte for
//! byte into `site/` at the same paths by every publish, and kept by its prune.
//!
//! `site/` is publish's: a file here may not stand where publish writes. Publish owns the
//! language folders (`kn/`, `en/`), the open data (`data/`) and the files at the root it
//! writes (`index.html`, `robots.txt`, `sitemap.xml`); a file of site-extra there stops the
//! run before anything is written, naming both. The one file publish yields is its icon:
//! a `favicon.svg` here is the site's icon instead of publish's. The folder is optional;
//! symbolic links are refused (what is published is what the folder holds).

use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::feeds::{FAVICON, ROBOTS, SITEMAP};

/// The folder under the pipeline directory.
pub const DIR: &str = "site-extra";

/// The operator's files, by their path in the site (`/`-separated), each with where it is.
#[derive(Debug, Default)]
pub struct Extras {
    dir: PathBuf,
    files: BTreeMap<String, PathBuf>,
}

/// What publish writes at a path of the site, if it does.
pub fn owner(rel: &str) -> Option<String> {
    let first = rel.split('/').next().unwrap_or(rel);
    match first {
        "kn" | "en" => Some(format!("the {first} pages ({first}/)")),
        "data" => Some("the open data (data/)".into()),
        "index.html" => Some("the front page".into()),
        f if f == ROBOTS => Some("the site's robots.txt".into()),
        f if f == SITEMAP => Some("the sitemap".into()),
        _ => None,
    }
}

impl Extras {
    /// Reads `PIPELINE/site-extra/` (none: no files), refusing a file where publish writes.
    pub fn load(pipeline: &Path) -> Result<Extras> {
        let dir = pipeline.join(DIR);
        let mut extras = Extras {
            dir: dir.clone(),
            files: BTreeMap::new(),
        };
        if !dir.exists() {
            return Ok(extras);
        }
        walk(&dir, &dir, &mut extras.files)?;
        for rel in extras.files.keys() {
            if let Some(what) = owner(rel) {
                bail!(
                    "{} would stand where publish writes site/{rel} ({what}): give it another name or place",
                    dir.join(rel).display()
                );
            }
        }
        Ok(extras)
    }

    /// Whether the operator brings the site's icon.
    pub fn replaces_favicon(&self) -> bool {
        self.files.contains_key(FAVICON)
    }

    /// The files' paths in the site.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// Copies every file into the site (each only if it changed), none over a file publish
    /// wrote this run (`written`, paths from the site's root). Returns the paths copied.
    pub fn copy(&self, site: &Path, written: &BTreeSet<PathBuf>) -> Result<Vec<String>> {
        for rel in self.files.keys() {
            if written.contains(Path::new(rel)) {
                bail!(
                    "{} would overwrite site/{rel}, which publish writes: give it another name or place",
                    self.dir.join(rel).display()
                );
            }
        }
        let mut copied = Vec::new();
        for (rel, from) in &self.files {
            let bytes =
                std::fs::read(from).with_context(|| format!("reading {}", from.display()))?;
            super::site::put(&site.join(rel), &bytes)?;
            copied.push(rel.clone());
        }
        Ok(copied)
    }
}

fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, PathBuf>) -> Result<()> {
    let entries = std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("reading {}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .with_context(|| format!("reading {}", path.display()))?;
        if kind.is_symlink() {
            bail!(
                "{} is a symbolic link: put the file itself in {}",
                path.display(),
                root.display()
            );
        }
        if kind.is_dir() {
            walk(root, &path, files)?;
            continue;
        }
        let rel = path.strip_prefix(root).unwrap_or(&path);
        let Some(parts) = rel
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect::<Option<Vec<&str>>>()
        else {
            bail!("{}: a file name that is not UTF-8", path.display());
        };
        files.insert(parts.join("/"), path.clone());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_owns_the_language_folders_the_open_data_and_its_root_files() {
        for rel in [
            "kn/index.html",
            "en/x.html",
            "data/README.txt",
            "index.html",
            "robots.txt",
            "sitemap.xml",
            "kn",
        ] {
            assert!(owner(rel).is_some(), "{rel}");
        }
        for rel in [
            "google1234567890abcdef.html",
            ".well-known/security.txt",
            "favicon.ico",
            "favicon.svg",
            "english/x.html",
        ] {
            assert_eq!(owner(rel), None, "{rel}");
        }
    }
}

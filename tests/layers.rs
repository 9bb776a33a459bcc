//! The folders of `src/` are the layers of the program, and a layer uses only the layers
//! below it: every path `crate::…` in a file names a layer no higher than the file's own.
//! The order is the one `src/lib.rs` and `docs/architecture.md` draw.

use std::fs;
use std::path::{Path, PathBuf};

/// The layers from the bottom up; `cli` (with the binary's `main.rs`) is the top.
const LAYERS: [&str; 11] = [
    "text", "rules", "ai", "game", "store", "net", "explain", "report", "ui", "cli", "commands",
];

fn rank(layer: &str) -> Option<usize> {
    LAYERS.iter().position(|&l| l == layer)
}

fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ can be read") {
        let path = entry.expect("an entry of src/").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The layer a file of `src/` belongs to: its top folder, or its name at the top.
fn layer_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under src/");
    let first = relative
        .components()
        .next()
        .expect("a path with a first part");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// Every layer a file's text names as `crate::<layer>`, with its line number.
fn named_layers(text: &str) -> Vec<(usize, String)> {
    let mut named = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + "crate::".len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            named.push((number + 1, word));
        }
    }
    named
}

#[test]
fn every_top_level_entry_of_src_is_a_layer() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for entry in fs::read_dir(&src).expect("src/ can be read") {
        let path = entry.expect("an entry of src/").path();
        let layer = layer_of(&src, &path);
        assert!(
            rank(&layer).is_some() || layer == "lib" || layer == "main",
            "src/{layer} is not one of the layers {LAYERS:?}: put it in the folder of its layer"
        );
    }
}

#[test]
fn every_crate_path_names_a_layer_no_higher_than_its_own_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(
        files.len() > 50,
        "found only {} files under src/",
        files.len()
    );
    let mut upward = Vec::new();
    let mut checked = 0;
    for file in &files {
        let layer = layer_of(&src, file);
        let Some(own) = rank(&layer) else { continue };
        let text = fs::read_to_string(file).expect("a source file reads");
        for (line, named) in named_layers(&text) {
            checked += 1;
            match rank(&named) {
                Some(target) if target <= own => {}
                Some(_) => upward.push(format!("{}:{line} ({layer} uses {named})", file.display())),
                None => upward.push(format!(
                    "{}:{line} names crate::{named}, no layer",
                    file.display()
                )),
            }
        }
    }
    assert!(checked > 500, "checked only {checked} paths");
    assert!(
        upward.is_empty(),
        "paths that go up a layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn a_path_to_a_higher_layer_is_found() {
    let named = named_layers(
        "use crate::ui::tui;\nlet x = crate::rules::classic::Board::new();\n// $crate::ai",
    );
    assert_eq!(named, [(1, "ui".to_string()), (2, "rules".to_string())]);
}

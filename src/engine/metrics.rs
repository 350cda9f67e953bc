//! Metrics as declarations and handles. A scenario declares each metric it
//! reports once ([`MetricDecl`], with its label and meaning); a model asks a
//! [`MetricList`] for a [`Metric`] handle per declaration and records
//! through the handle. `krunch list`, `docs/RULES.md`, the report labels and
//! the conformance tests all read the same declarations.

use crate::dice::Metric;

/// How a metric's value is summarised and how its interval is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetricKind {
    /// A probability: each trial records 0 or 1 (Wilson interval).
    Probability,
    /// A mean of a non-negative count (normal interval on the mean).
    Mean,
}

/// A metric as a scenario declares it. A family (`hits={k}`) has `{k}` in
/// its id and label; a model adds one member per value of `k` it can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricDecl {
    /// Stable id used in specs and CSV (`p_hit`, `hits={k}`).
    pub id: &'static str,
    /// What a person reads on a chart or table (`P(hit)`, `P({k} hits)`).
    pub label: &'static str,
    /// How it is summarised.
    pub kind: MetricKind,
    /// One line saying what it measures.
    pub about: &'static str,
    /// A yes/no answer about a setting (`is_best_mode`): exactly 0 or 1 in
    /// every cell, so charts show "yes"/"no", not a 0-100% scale.
    pub yes_no: bool,
}

impl MetricDecl {
    /// A probability metric.
    pub const fn probability(id: &'static str, label: &'static str, about: &'static str) -> Self {
        MetricDecl {
            id,
            label,
            kind: MetricKind::Probability,
            about,
            yes_no: false,
        }
    }

    /// A yes/no answer about the setting itself (1 when it holds): a
    /// probability that is always exactly 0 or 1.
    pub const fn yes_no(id: &'static str, label: &'static str, about: &'static str) -> Self {
        MetricDecl {
            id,
            label,
            kind: MetricKind::Probability,
            about,
            yes_no: true,
        }
    }

    /// A mean metric.
    pub const fn mean(id: &'static str, label: &'static str, about: &'static str) -> Self {
        MetricDecl {
            id,
            label,
            kind: MetricKind::Mean,
            about,
            yes_no: false,
        }
    }

    /// Whether this declares a family (`{k}` in the id).
    pub fn is_family(&self) -> bool {
        self.id.contains("{k}")
    }

    /// Whether `name` is this metric, or a member of this family.
    pub fn matches(&self, name: &str) -> bool {
        match self.id.split_once("{k}") {
            None => self.id == name,
            Some((head, tail)) => {
                name.len() > head.len() + tail.len()
                    && name.starts_with(head)
                    && name.ends_with(tail)
                    && name[head.len()..name.len() - tail.len()]
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_')
            }
        }
    }
}

/// One metric a built model reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricDef {
    /// Stable name used in specs and CSV (`p_hit`, `hits=2`).
    pub name: String,
    /// What a person reads (`P(hit)`, `P(2 hits)`).
    pub label: String,
    /// How it is summarised.
    pub kind: MetricKind,
    /// One line saying what it measures.
    pub about: &'static str,
    /// The declaration it comes from (its id, `hits={k}` for a member).
    pub declared_as: &'static str,
    /// A yes/no answer (see [`MetricDecl::yes_no`]).
    pub yes_no: bool,
}

/// The metrics a model reports, in tally order, built from declarations.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MetricList {
    defs: Vec<MetricDef>,
}

impl MetricList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a plain metric and returns its handle.
    pub fn add(&mut self, decl: &MetricDecl) -> Metric {
        debug_assert!(!decl.is_family(), "{} is a family: use add_k", decl.id);
        self.push(decl, decl.id.to_string(), decl.label.to_string())
    }

    /// Adds member `k` of a family and returns its handle. The label reads
    /// `k` with spaces (`head_butt` in the id, "head butt" in the label).
    pub fn add_k(&mut self, decl: &MetricDecl, k: impl std::fmt::Display) -> Metric {
        debug_assert!(decl.is_family(), "{} is not a family", decl.id);
        let k = k.to_string();
        self.push(
            decl,
            decl.id.replace("{k}", &k),
            decl.label.replace("{k}", &k.replace('_', " ")),
        )
    }

    /// Adds member `k` of a family whose label reads `words` where the id
    /// has `k` (`fixed_weapon` in the id, "fixed weapon" in the label).
    pub fn add_k_worded(
        &mut self,
        decl: &MetricDecl,
        k: impl std::fmt::Display,
        words: &str,
    ) -> Metric {
        debug_assert!(decl.is_family(), "{} is not a family", decl.id);
        self.push(
            decl,
            decl.id.replace("{k}", &k.to_string()),
            decl.label.replace("{k}", words),
        )
    }

    /// Adds members `ks` of a family, returning their handles in order.
    pub fn family<K: std::fmt::Display>(
        &mut self,
        decl: &MetricDecl,
        ks: impl IntoIterator<Item = K>,
    ) -> Vec<Metric> {
        ks.into_iter().map(|k| self.add_k(decl, k)).collect()
    }

    fn push(&mut self, decl: &MetricDecl, name: String, label: String) -> Metric {
        debug_assert!(
            !self.defs.iter().any(|d| d.name == name),
            "metric {name} added twice"
        );
        self.defs.push(MetricDef {
            name,
            label,
            kind: decl.kind,
            about: decl.about,
            declared_as: decl.id,
            yes_no: decl.yes_no,
        });
        Metric::at(self.defs.len() - 1)
    }

    /// The metrics in tally order.
    pub fn defs(&self) -> &[MetricDef] {
        &self.defs
    }

    /// How many metrics.
    pub fn len(&self) -> usize {
        self.defs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.defs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HITS: MetricDecl = MetricDecl::probability("hits={k}", "P({k} hits)", "exactly k hits");
    const P_HIT: MetricDecl = MetricDecl::probability("p_hit", "P(hit)", "at least one hit");

    #[test]
    fn handles_follow_declaration_order_and_families_expand() {
        let mut l = MetricList::new();
        let hit = l.add(&P_HIT);
        let hits = l.family(&HITS, 0..=2);
        assert_eq!(hit.index(), 0);
        assert_eq!(hits[2].index(), 3);
        assert_eq!(l.defs()[3].name, "hits=2");
        assert_eq!(l.defs()[3].label, "P(2 hits)");
        assert!(HITS.matches("hits=12") && !HITS.matches("hits=") && !HITS.matches("p_hit"));
        assert!(P_HIT.matches("p_hit") && !P_HIT.matches("p_hits"));
    }
}

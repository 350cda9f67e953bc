//! "At least k" for every distribution family, derived in one place
//! rather than by every rule: a family `X={k}` (a probability, `k` a whole
//! number, members disjoint: one trial lands in at most one) also gives
//! `X>={k}`, the sum of its members from `k` up (and of its leftover
//! `X>{K}` beyond the last member shown, where the family has one).
//!
//! [`with_at_least`] wraps a built model so the tails are metrics like any
//! other (specs, `[[expect]]`, `check`, `compare`, shards): exact values
//! summed from the far end (a far tail keeps its digits), and each Monte
//! Carlo tail the sum of its members' integer counts after every chunk, a
//! count of trials like any probability's, so its interval is the usual
//! binomial one and the same dice give the same tails on any thread count.
//!
//! A family whose name says `by` (`broken_by_turn={k}`: "by turn k") is
//! already a running total, not a distribution, and is left alone.

use crate::dice::{BatchedRoller, Metric, Tally};
use crate::engine::NoExact;
use crate::systems::{MetricDecl, MetricDef, MetricKind, Model, Sampler};

/// One distribution family of a model: its members by value and the
/// metrics derived from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    /// The declared id (`hits={k}`).
    pub id: &'static str,
    /// The name before `={k}` (`hits`).
    pub head: String,
    /// `(k, metric index)` of each member, `k` ascending.
    pub members: Vec<(i64, usize)>,
    /// The leftover beyond the last member (`turns>{k}`): its `k` and index.
    pub beyond: Option<(i64, usize)>,
    /// The index of `head>=k` for each member, in the order of `members`.
    pub at_least: Vec<usize>,
}

/// The distribution families among `defs`, with the indices their
/// `>=` members will have when appended after `defs` in family order.
pub fn families(defs: &[MetricDef]) -> Vec<Family> {
    let mut out: Vec<Family> = Vec::new();
    let mut next = defs.len();
    let mut ids: Vec<&'static str> = Vec::new();
    for d in defs {
        if !ids.contains(&d.declared_as) {
            ids.push(d.declared_as);
        }
    }
    for id in ids {
        let Some(head) = id.strip_suffix("={k}") else {
            continue;
        };
        if head.is_empty()
            || head.contains(['=', '>', '<', '{'])
            || head.split('_').any(|w| w == "by")
        {
            continue;
        }
        let of_family: Vec<(usize, &MetricDef)> = defs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.declared_as == id)
            .collect();
        if of_family
            .iter()
            .any(|(_, d)| d.kind != MetricKind::Probability || d.yes_no)
        {
            continue;
        }
        let values: Option<Vec<(i64, usize)>> = of_family
            .iter()
            .map(|(i, d)| {
                d.name
                    .strip_prefix(head)
                    .and_then(|r| r.strip_prefix('='))
                    .and_then(|k| k.parse::<i64>().ok())
                    .map(|k| (k, *i))
            })
            .collect();
        let Some(mut members) = values else { continue };
        members.sort_unstable();
        let beyond_id = format!("{head}>{{k}}");
        let beyond = defs
            .iter()
            .enumerate()
            .find(|(_, d)| d.declared_as == beyond_id && d.kind == MetricKind::Probability)
            .and_then(|(i, d)| {
                let k = d.name.strip_prefix(head)?.strip_prefix('>')?.parse().ok()?;
                Some((k, i))
            });
        let at_least = (next..next + members.len()).collect();
        next += members.len();
        out.push(Family {
            id,
            head: head.to_string(),
            members,
            beyond,
            at_least,
        });
    }
    out
}

/// The id of the `>=` family derived from family `id` (`hits={k}` ->
/// `hits>={k}`), leaked once per id so declarations stay `'static`.
pub fn at_least_id(id: &str) -> &'static str {
    leak_once(id.replacen("={k}", ">={k}", 1))
}

fn leak_once(text: String) -> &'static str {
    use std::collections::BTreeSet;
    use std::sync::Mutex;
    static MADE: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut made = MADE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&s) = made.get(text.as_str()) {
        return s;
    }
    let s: &'static str = Box::leak(text.into_boxed_str());
    made.insert(s);
    s
}

/// The label template of `head>={k}` from the family's declared label
/// (`P({k} hits)` -> `P(at least {k} hits)`), or `P(head ≥ {k})` where
/// the declaration is not at hand.
fn at_least_label(family: &Family, catalogue: &[MetricDecl]) -> String {
    match catalogue.iter().find(|d| d.id == family.id) {
        // `P(exactly {k} Extras)` -> `P(at least {k} Extras)`
        Some(d) if d.label.contains("exactly {k}") => {
            d.label.replacen("exactly {k}", "at least {k}", 1)
        }
        Some(d) if d.label.contains("{k}") => d.label.replacen("{k}", "at least {k}", 1),
        _ => format!("P({} ≥ {{k}})", family.head.replace('_', " ")),
    }
}

/// The declarations of the `>=` families a scenario's catalogue gives
/// rise to (for `krunch list` and the docs: what a spec may name).
pub fn derived_decls(catalogue: &[MetricDecl]) -> Vec<MetricDecl> {
    let defs: Vec<MetricDef> = catalogue
        .iter()
        .filter(|d| d.is_family())
        .map(|d| MetricDef {
            name: d.id.replace("{k}", "0"),
            label: d.label.to_string(),
            kind: d.kind,
            about: d.about,
            declared_as: d.id,
            yes_no: d.yes_no,
        })
        .collect();
    families(&defs)
        .iter()
        .map(|f| MetricDecl {
            id: at_least_id(f.id),
            label: leak_once(at_least_label(f, catalogue)),
            kind: MetricKind::Probability,
            about: ABOUT,
            yes_no: false,
        })
        .collect()
}

const ABOUT: &str = "P(at least k): the family's members from k up, summed (derived)";

/// A model with its distribution families' `>=` metrics after its own.
struct AtLeast {
    inner: Box<dyn Model>,
    defs: Vec<MetricDef>,
    families: Vec<Family>,
}

/// `model` with a `X>={k}` metric for each member of each distribution
/// family (see the module), or `model` itself where it has none.
/// `catalogue` is the scenario's declarations, for the labels.
pub fn with_at_least(model: Box<dyn Model>, catalogue: &[MetricDecl]) -> Box<dyn Model> {
    let families = families(model.metrics());
    if families.is_empty() {
        return model;
    }
    let mut defs = model.metrics().to_vec();
    for f in &families {
        let id = at_least_id(f.id);
        let label = at_least_label(f, catalogue);
        for &(k, _) in &f.members {
            defs.push(MetricDef {
                name: id.replace("{k}", &k.to_string()),
                label: label.replace("{k}", &k.to_string()),
                kind: MetricKind::Probability,
                about: ABOUT,
                declared_as: id,
                yes_no: false,
            });
        }
    }
    Box::new(AtLeast {
        inner: model,
        defs,
        families,
    })
}

impl AtLeast {
    /// Sets each tail's count to the sum of its members' counts: the
    /// tally only ever grows through this model (and `+=` of tallies that
    /// hold the same sums), so what a tail lacks is exactly what its
    /// members gained since.
    fn fill_tallies(&self, tally: &mut Tally) {
        for f in &self.families {
            let mut acc = f.beyond.map_or(0, |(_, i)| tally.sum(i));
            for (&(_, member), &tail) in f.members.iter().zip(&f.at_least).rev() {
                acc += tally.sum(member);
                let gained = acc - tally.sum(tail);
                tally.record_many(Metric::at(tail), 1, gained);
            }
        }
    }

    fn fill_exact(&self, values: &mut Vec<f64>) {
        values.resize(self.defs.len(), 0.0);
        for f in &self.families {
            let mut acc = f.beyond.map_or(0.0, |(_, i)| values[i]);
            for (&(_, member), &tail) in f.members.iter().zip(&f.at_least).rev() {
                acc += values[member];
                values[tail] = acc;
            }
        }
    }
}

impl Model for AtLeast {
    fn metrics(&self) -> &[MetricDef] {
        &self.defs
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.inner.run_chunk(roller, trials, tally);
        self.fill_tallies(tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        let mut values = self.inner.exact()?;
        self.fill_exact(&mut values);
        Some(values)
    }

    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        let mut values = self.inner.exact_or_why()?;
        self.fill_exact(&mut values);
        Ok(values)
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        let own = self.inner.metrics().len();
        self.inner.sample_one(roller, &mut values[..own]);
        for f in &self.families {
            let mut acc = f.beyond.map_or(0, |(_, i)| values[i]);
            for (&(_, member), &tail) in f.members.iter().zip(&f.at_least).rev() {
                acc += values[member];
                values[tail] = acc;
            }
        }
    }

    fn plan(&self, trials: u64) {
        self.inner.plan(trials);
    }

    fn sampler(&self) -> Sampler {
        self.inner.sampler()
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.inner.run_reference(roller, trials, tally);
        self.fill_tallies(tally);
    }
}

/// A distribution family as a report shows it: the values of `k` the
/// spec's metrics list (as `head=k` or `head>=k`), ascending.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    /// The declared id (`hits={k}`).
    pub id: &'static str,
    /// The name before `={k}` (`hits`).
    pub head: String,
    /// The values listed, ascending.
    pub ks: Vec<i64>,
    /// The leftover metrics listed (`turns>6`), any model's.
    pub beyond: Vec<String>,
}

impl Listed {
    /// `head=k`.
    pub fn equal(&self, k: i64) -> String {
        format!("{}={k}", self.head)
    }

    /// `head>=k`.
    pub fn at_least(&self, k: i64) -> String {
        format!("{}>={k}", self.head)
    }

    /// Whether `metric` is one of this family's (`=`, `>=` or leftover).
    pub fn holds(&self, metric: &str) -> bool {
        let member = |op: &str| {
            metric
                .strip_prefix(self.head.as_str())
                .and_then(|r| r.strip_prefix(op))
                .is_some_and(|k| k.parse::<i64>().is_ok())
        };
        member("=") || member(">=") || self.beyond.iter().any(|b| b == metric)
    }

    /// The metric a chart of this family headlines: P(at least the second
    /// value listed) (`P(at least 1 hit)`, where P(at least 0) is always
    /// 100%), or the only one.
    pub fn headline(&self) -> String {
        let k = self.ks.get(1).or(self.ks.first()).copied().unwrap_or(0);
        self.at_least(k)
    }
}

/// The distribution families of `exp` whose members its metrics list, in
/// the order of their first listed member.
pub fn listed(exp: &super::Experiment) -> Vec<Listed> {
    let mut out: Vec<Listed> = Vec::new();
    let models = exp.models.iter().flatten();
    let mut found: Vec<(Family, String)> = Vec::new();
    for m in models {
        for f in families(m.metrics()) {
            let beyond = f.beyond.map(|(_, i)| m.metrics()[i].name.clone());
            found.push((f, beyond.unwrap_or_default()));
        }
    }
    for metric in &exp.metrics {
        for (f, beyond) in &found {
            let k = [">=", "="].iter().find_map(|op| {
                metric
                    .strip_prefix(f.head.as_str())?
                    .strip_prefix(op)?
                    .parse::<i64>()
                    .ok()
            });
            let is_beyond = !beyond.is_empty() && beyond == metric;
            if k.is_none() && !is_beyond {
                continue;
            }
            let at = match out.iter().position(|l| l.id == f.id) {
                Some(i) => i,
                None => {
                    out.push(Listed {
                        id: f.id,
                        head: f.head.clone(),
                        ks: Vec::new(),
                        beyond: Vec::new(),
                    });
                    out.len() - 1
                }
            };
            let l = &mut out[at];
            if let Some(k) = k.filter(|k| !l.ks.contains(k)) {
                l.ks.push(k);
                l.ks.sort_unstable();
            }
            if is_beyond && !l.beyond.contains(beyond) {
                l.beyond.push(beyond.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::MetricSink;
    use crate::engine::MetricList;

    const HITS: MetricDecl = MetricDecl::probability("hits={k}", "P({k} hits)", "exactly k hits");
    const BY_TURN: MetricDecl = MetricDecl::probability(
        "broken_by_turn={k}",
        "P(broken by turn {k})",
        "running total",
    );
    const PLAYS: MetricDecl =
        MetricDecl::probability("attack={k}", "P(plays {k})", "a choice, not a count");
    const TURNS: MetricDecl = MetricDecl::probability("turns={k}", "P(over after {k} turns)", "");
    const BEYOND: MetricDecl = MetricDecl::probability("turns>{k}", "P(not over after {k})", "");
    const MEAN: MetricDecl = MetricDecl::mean("mean_hits", "mean hits", "");

    /// hits 0/1/2 with probabilities 0.5/0.3/0.2: trial `t` of every ten
    /// lands on 0 for t < 5, 1 for t < 8, else 2.
    struct Hand {
        list: MetricList,
        hits: Vec<Metric>,
    }

    impl Hand {
        fn new() -> Self {
            let mut list = MetricList::new();
            list.add(&MEAN);
            let hits = list.family(&HITS, 0..=2);
            Hand { list, hits }
        }

        fn value(t: u64) -> usize {
            match t % 10 {
                0..5 => 0,
                5..8 => 1,
                _ => 2,
            }
        }
    }

    impl Model for Hand {
        fn metrics(&self) -> &[MetricDef] {
            self.list.defs()
        }
        fn run_chunk(&self, _roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
            for t in 0..trials {
                let v = Self::value(t);
                tally.record(self.hits[v], 1);
                tally.record(Metric::at(0), v as u64);
                tally.finish_trial();
            }
        }
        fn exact(&self) -> Option<Vec<f64>> {
            Some(vec![1.0 * 0.3 + 2.0 * 0.2, 0.5, 0.3, 0.2])
        }
        fn sample_one(&self, _roller: &mut BatchedRoller, values: &mut [u64]) {
            values[self.hits[2].index()] = 1;
            values[0] = 2;
        }
    }

    #[test]
    fn tails_and_quantiles_of_a_family_by_hand() {
        // 0.5/0.3/0.2 -> at least 1/0.5/0.2, median 1, 90th percentile 2
        let model = with_at_least(Box::new(Hand::new()), &[HITS]);
        let names: Vec<&str> = model.metrics().iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "mean_hits",
                "hits=0",
                "hits=1",
                "hits=2",
                "hits>=0",
                "hits>=1",
                "hits>=2"
            ]
        );
        assert_eq!(model.metrics()[5].label, "P(at least 1 hits)");
        assert_eq!(model.metrics()[5].declared_as, "hits>={k}");
        let exact = model.exact().unwrap();
        assert_eq!(exact[4..], [1.0, 0.5, 0.2]);
        let ks = [0, 1, 2];
        use crate::experiment::quantiles::{Quantile, quantile};
        assert_eq!(quantile(&ks, &exact[4..], 0.0, 0.5), Quantile::At(1));
        assert_eq!(quantile(&ks, &exact[4..], 0.0, 0.9), Quantile::At(2));
        // a family holding a third of the mass, and one cut short
        assert_eq!(
            quantile(&ks, &[0.3, 0.2, 0.1], 0.0, 0.5),
            Quantile::Below(0)
        );
        assert_eq!(
            quantile(&ks, &[1.0, 0.8, 0.6], 0.4, 0.9),
            Quantile::Above(2)
        );
        assert_eq!(Quantile::Above(2).to_string(), "more than 2");

        // Monte Carlo: two chunks folded into one tally, and a tally
        // added to another, keep every tail the sum of its members
        let mut roller = BatchedRoller::new(1, &[0]);
        let mut a = Tally::new(model.metrics().len());
        model.run_chunk(&mut roller, 10, &mut a);
        model.run_chunk(&mut roller, 20, &mut a);
        let mut b = Tally::new(model.metrics().len());
        model.run_chunk(&mut roller, 10, &mut b);
        a += &b;
        model.run_chunk(&mut roller, 10, &mut a);
        let sums: Vec<u64> = (4..7).map(|i| a.sum(i)).collect();
        assert_eq!(a.trials(), 50);
        assert_eq!(sums, [50, 25, 10]);
        // a tail is a count of trials: its squares are its sum
        assert!((4..7).all(|i| a.sum_sq(i) == u128::from(a.sum(i))));
        let mut values = vec![0; model.metrics().len()];
        model.sample_one(&mut roller, &mut values);
        assert_eq!(values[4..], [1, 1, 1]);
    }

    #[test]
    fn only_whole_numbered_disjoint_probability_families_count() {
        let mut list = MetricList::new();
        list.add(&MEAN);
        list.family(&BY_TURN, 1..=3);
        list.add_k(&PLAYS, "thrust");
        list.family(&TURNS, 1..=4);
        list.add_k(&BEYOND, 4);
        list.family(&HITS, [2, 0, 1]);
        let found = families(list.defs());
        let ids: Vec<&str> = found.iter().map(|f| f.id).collect();
        assert_eq!(ids, ["turns={k}", "hits={k}"]);
        let turns = &found[0];
        assert_eq!(turns.beyond, Some((4, 9)));
        assert_eq!(turns.at_least, [13, 14, 15, 16]);
        // members sorted by value whatever order they were added in
        assert_eq!(found[1].members, [(0, 11), (1, 12), (2, 10)]);
        // the leftover beyond the last turn shown is in every tail
        let d = derived_decls(&[TURNS, BEYOND, BY_TURN, HITS, MEAN]);
        let labels: Vec<&str> = d.iter().map(|d| d.label).collect();
        assert_eq!(
            labels,
            ["P(over after at least {k} turns)", "P(at least {k} hits)"]
        );
    }

    /// A family labelled "P(exactly k ...)" gives "P(at least k ...)",
    /// not "P(exactly at least k ...)" (Crisis' Extras read so in every
    /// report until this test).
    #[test]
    fn an_exactly_label_becomes_at_least() {
        const EXTRAS: MetricDecl =
            MetricDecl::probability("extras={k}", "P(exactly {k} Extras)", "exactly k Extras");
        let d = derived_decls(&[EXTRAS]);
        assert_eq!(d[0].label, "P(at least {k} Extras)");
    }
}

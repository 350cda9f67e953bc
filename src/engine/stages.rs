//! State face tables: a trial written as steps on a state is laid out, once
//! per model, as a walk over dense nodes (a step index and a state). From
//! each node a group of the next steps is run through the rule's own step
//! code on every combination of the faces its dice can show (a
//! mixed-radix index, one digit a die position, as the engine's face
//! tables lay out a whole trial), and each combination's resulting node
//! kept. A Monte Carlo trial is then a few uniform draws of a combination,
//! each a look-up keyed by the node it stands at: the dice of a group
//! rolled all at once, never a step's or a trial's outcome drawn from a
//! law, so the Monte Carlo stays a check of how the exact evaluator chains
//! steps and merges states.
//!
//! A group stops where its combinations would pass [`GROUP_FACES`], and
//! at the steps the rule marks as counted (a turn's end, whose states a
//! metric reads): the walk counts the trials through each counted node and
//! each final node, and the rule records each state once per chunk. Where
//! the nodes or their combinations pass [`MOST_NODES`] or [`MOST_ENTRIES`]
//! (a rule at large parameters), there is no layout and the rule samples
//! its own way.

use crate::dice::{Alias, BATCH_LIMIT, BatchedRoller, Roller, Tally, Times};

/// Trials [`StateFaces::count`] walks side by side.
const LANES: usize = 4;
use crate::engine::faces::{WIDEST_DIGIT, lcm};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::engine::{MetricDef, Model, NoExact, Sampler};
use std::hash::Hash;

/// Most face combinations one group of steps lays out from one node.
pub const GROUP_FACES: u64 = 1 << 11;

/// Most nodes a layout may hold.
pub const MOST_NODES: usize = 1 << 15;

/// Most combinations (four bytes each) a layout may hold over its nodes.
pub const MOST_ENTRIES: usize = 1 << 21;

/// Entries a layout may hold for a run of `planned` trials (0: not told,
/// as in tests and benchmarks): laying out an entry runs a group of steps
/// once, about what a trial's walk saves, so a layout is kept within half
/// the trials it serves (a sweep's cells of 200,000 trials laid out 2^21
/// entries each and took three times as long as without).
pub fn entries_for(planned: u64) -> usize {
    if planned == 0 {
        MOST_ENTRIES
    } else {
        MOST_ENTRIES.min(usize::try_from(planned / 2).unwrap_or(usize::MAX))
    }
}

/// A node of the walk: its group's combinations and where its entries
/// start.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Combinations of the group (0: the trial has ended here).
    size: u64,
    /// First entry.
    base: u32,
    /// Where the walk counts trials through it ([`NONE`]: not counted).
    slot: u32,
}

const NONE: u32 = u32::MAX;

/// A node as the walk reads it, in one word: its table's first entry in
/// the low 32 bits, its combinations in the next 16 (0: the trial ends
/// there), its counted slot plus one in the top 16 (0: not counted).
fn pack(n: &Node) -> u64 {
    let base = n.base;
    let slot = if n.slot == NONE {
        0
    } else {
        u64::from(n.slot) + 1
    };
    u64::from(base) | (n.size << 32) | (slot << 48)
}

/// The walk of a rule's steps over every node a trial can reach.
#[derive(Debug)]
pub struct StateFaces<S> {
    nodes: Vec<Node>,
    /// Each combination's next node, packed ([`pack`]).
    entry: Vec<u64>,
    /// The first node, packed.
    start: u64,
    /// The counted nodes: step index and state, in slot order.
    counted: Vec<(usize, S)>,
}

/// One trial on its way through the walk.
#[derive(Clone, Copy, Debug)]
struct Lane {
    /// The node it stands at, packed.
    node: u64,
    /// The word its draws come from, and the product of the sizes drawn
    /// from it so far (past [`BATCH_LIMIT`]: a fresh word at the next draw).
    word: u64,
    used: u64,
}

impl Lane {
    /// A trial at `node`, its first draw from a fresh word.
    fn at(node: u64) -> Self {
        Lane {
            node,
            word: 0,
            used: BATCH_LIMIT + 1,
        }
    }
}

/// The rule as [`StateFaces::build`] needs it.
pub struct Steps<S, F, C> {
    /// The state before any dice.
    pub start: S,
    /// Steps a trial takes.
    pub steps: usize,
    /// Step `i` on `dice`.
    pub step: F,
    /// Whether the states reached before step `i` are counted (`i ==
    /// steps`, the endings, always are).
    pub counted: C,
}

impl<S: Clone + Eq + Hash> StateFaces<S> {
    /// The layout of `rule`, or `None` where a single step has more than
    /// [`GROUP_FACES`] combinations or the layout passes its bounds
    /// ([`MOST_NODES`], `most_entries`).
    pub fn build<F, C>(rule: &Steps<S, F, C>, most_entries: usize) -> Option<Self>
    where
        F: Fn(usize, &mut Digits, &mut S),
        C: Fn(usize) -> bool,
    {
        let steps = |i: usize, j: usize| {
            move |d: &mut Digits, t: &mut S| {
                for k in i..j {
                    (rule.step)(k, d, t);
                }
            }
        };
        Self::walk(
            (0, rule.start.clone()),
            |(i, s)| {
                let i = *i;
                if i == rule.steps {
                    return Some(Vec::new());
                }
                // the longest group from i that fits, stopping at counted
                // steps
                let mut j = i + 1;
                let mut best = lay_out(s, steps(i, j))?;
                while j < rule.steps && !(rule.counted)(j) {
                    match lay_out(s, steps(i, j + 1)) {
                        Some(wider) => {
                            best = wider;
                            j += 1;
                        }
                        None => break,
                    }
                }
                Some(best.into_iter().map(|t| (j, t)).collect())
            },
            |(i, _)| *i == rule.steps || (*i > 0 && (rule.counted)(*i)),
            most_entries,
        )
    }

    /// The walk over every node a trial reaches from `start`: `next` gives
    /// a node's next node for each combination of its group's faces (none:
    /// the trial ends there), or `None` where the group does not lay out;
    /// `counted` says which nodes count the trials through them. `None`
    /// where the nodes or their combinations pass their bounds.
    pub fn walk(
        start: (usize, S),
        mut next: impl FnMut(&(usize, S)) -> Option<Vec<(usize, S)>>,
        counted: impl Fn(&(usize, S)) -> bool,
        most_entries: usize,
    ) -> Option<Self> {
        let mut keys: Vec<(usize, S)> = vec![start.clone()];
        let mut ids: foldhash::HashMap<(usize, S), u32> = Default::default();
        ids.insert(start, 0);
        let mut nodes: Vec<Node> = Vec::new();
        let mut entry: Vec<u32> = Vec::new();
        let mut counted_keys = Vec::new();
        let mut at = 0;
        while at < keys.len() {
            let key = keys[at].clone();
            let slot = if counted(&key) {
                counted_keys.push(key.clone());
                (counted_keys.len() - 1) as u32
            } else {
                NONE
            };
            let combos = next(&key)?;
            let mut next_ids = Vec::with_capacity(combos.len());
            for key in combos {
                let id = keys.len() as u32;
                let id = *ids.entry(key.clone()).or_insert_with(|| {
                    keys.push(key);
                    id
                });
                next_ids.push(id);
            }
            if keys.len() > MOST_NODES {
                return None;
            }
            let size = next_ids.len();
            let base = entry.len();
            if base + size > most_entries {
                return None;
            }
            entry.extend(next_ids);
            nodes.push(Node {
                size: size as u64,
                base: if size == 0 { 0 } else { base as u32 },
                slot,
            });
            at += 1;
        }
        let packed = |id: u32| pack(&nodes[id as usize]);
        let entry = entry.iter().map(|&id| packed(id)).collect();
        Some(StateFaces {
            start: packed(0),
            nodes,
            entry,
            counted: counted_keys,
        })
    }

    /// Runs `trials` trials from the first node: each group's combination
    /// drawn uniformly (a lane's word read [`StateFaces::digits_a_word`]
    /// times, those digits' product within the roller's [`BATCH_LIMIT`])
    /// and looked up. Returns how many trials passed
    /// through each counted node, in [`StateFaces::counted`]'s order.
    pub fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        // a node's count goes to row `slot` of LANES columns (row 0: not
        // counted), so every visit counts without a branch
        let mut counts = vec![0u64; LANES * (self.counted.len() + 1)];
        if (self.start >> 32) & 0xffff == 0 || self.entry.is_empty() {
            // a trial of no dice: every trial ends where it starts
            counts[LANES * (self.start >> 48) as usize] = trials;
        } else {
            let mut lanes = [Lane::at(self.start); LANES];
            let mut started = trials.min(LANES as u64);
            let digits = u64::from(self.digits_a_word());
            if trials >= LANES as u64 * (digits + 1) {
                roller.lend(|words| {
                    // one node of lane `$l`: counted, then its group drawn
                    // from the lane's word; a trial's end leads back to the
                    // start (no digit drawn) by masks, not by a branch,
                    // since the end is as likely as the dice make it
                    macro_rules! visit {
                        ($l:expr) => {{
                            let lane = &mut lanes[$l];
                            let n = lane.node;
                            counts[LANES * (n >> 48) as usize + $l] += 1;
                            let size = (n >> 32) & 0xffff;
                            let over = u64::from(size == 0);
                            let r = u128::from(lane.word) * u128::from(size | over);
                            lane.word = r as u64;
                            let at = ((n as u32) as usize + (r >> 64) as usize)
                                & (over as usize).wrapping_sub(1);
                            let to = self.entry[at];
                            let keep = over.wrapping_sub(1);
                            lane.node = (to & keep) | (self.start & !keep);
                            started += over;
                        }};
                    }
                    const _: () = assert!(LANES == 4);
                    // a lane takes a fresh word every `digits` visits, at
                    // places fixed in advance, not on a branch the dice
                    // decide; a block ends at most `digits` trials a lane
                    while started + LANES as u64 * digits <= trials {
                        for lane in &mut lanes {
                            lane.word = words.next_word();
                        }
                        for _ in 0..digits {
                            visit!(0);
                            visit!(1);
                            visit!(2);
                            visit!(3);
                        }
                    }
                });
                // the lanes' words are spent: the trials in flight go on
                // from fresh ones
                for lane in &mut lanes {
                    lane.used = BATCH_LIMIT + 1;
                }
            }
            // the trials in flight to their ends, then the rest one by one
            let in_flight = lanes.into_iter().take(started as usize);
            let rest = (started..trials).map(|_| Lane::at(self.start));
            for mut lane in in_flight.chain(rest) {
                loop {
                    let n = lane.node;
                    counts[LANES * (n >> 48) as usize] += 1;
                    let size = (n >> 32) & 0xffff;
                    if size == 0 {
                        break;
                    }
                    let u = lane.used * size;
                    if u > BATCH_LIMIT {
                        lane.word = roller.next_word();
                        lane.used = size;
                    } else {
                        lane.used = u;
                    }
                    let r = u128::from(lane.word) * u128::from(size);
                    lane.word = r as u64;
                    lane.node = self.entry[(n as u32) as usize + (r >> 64) as usize];
                }
            }
        }
        counts
            .chunks_exact(LANES)
            .skip(1)
            .map(|c| c.iter().sum())
            .collect()
    }

    /// Groups a lane of [`StateFaces::count`] draws from one word: as many
    /// of the widest as fit within [`BATCH_LIMIT`].
    pub fn digits_a_word(&self) -> u32 {
        let widest = self.nodes.iter().map(|n| n.size).max().unwrap_or(1).max(2);
        let mut digits = 1;
        let mut product = widest;
        while product * widest <= BATCH_LIMIT {
            product *= widest;
            digits += 1;
        }
        digits
    }

    /// The counted nodes (step index, state), in the order
    /// [`StateFaces::count`] counts them.
    pub fn counted(&self) -> &[(usize, S)] {
        &self.counted
    }

    /// Nodes laid out.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Combinations laid out over every node.
    pub fn entries(&self) -> usize {
        self.entry.len()
    }
}

/// State laws: the walk of [`StateFaces`] with a group of steps drawn from
/// its exact law instead of its faces. From each node (a step index and a
/// state) the group up to the next boundary (a turn's end) is composed
/// step by step, each step's faces enumerated through the rule's own step
/// code (as [`StateFaces`] lays them out) and equal states merged, and the
/// law of where the group ends is laid out as an alias table
/// ([`Alias`]): a group is one word, a multiply, one column and a compare,
/// and the table stays a few columns a node where a face table keeps every
/// combination. A group is a step of the chain, never the whole trial: a
/// rule whose first group would reach the end has no layout (drawing it
/// from its law would draw the trial from the exact answer).
#[derive(Debug)]
pub struct StateLaws<S> {
    /// Every node's columns, one node's side by side.
    columns: Vec<LawColumn>,
    /// The first node, packed as [`pack`] packs a node (its first column,
    /// its columns, its counted slot).
    start: u64,
    /// The counted nodes: step index and state, in slot order.
    counted: Vec<(usize, S)>,
    nodes: usize,
    /// A node of one column leading to itself, counted nowhere: where a
    /// lane of [`StateLaws::count`] stands once its trials are walked.
    park: u64,
}

/// One column of a node's alias table: below `keep` (scaled to 2^64) the
/// walk goes to `own`, else to `alias` (both packed nodes).
#[derive(Clone, Copy, Debug)]
struct LawColumn {
    keep: u64,
    own: u64,
    alias: u64,
}

/// Most columns a node's table may hold (16 bits of the packed node).
const MOST_COLUMNS: usize = 0xffff;

impl<S: Clone + Eq + Hash> StateLaws<S> {
    /// The layout of `rule` with a group ending before each step `j` where
    /// `ends(j)` (and at the counted steps), or `None` where a step has more
    /// than [`GROUP_FACES`] combinations, the first group would reach the
    /// end, or the layout passes [`MOST_NODES`] or `most_work` step runs
    /// (each face combination of each step from each state met, once).
    pub fn build<F, C>(
        rule: &Steps<S, F, C>,
        ends: impl Fn(usize) -> bool,
        most_work: usize,
    ) -> Option<Self>
    where
        F: Fn(usize, &mut Digits, &mut S),
        C: Fn(usize) -> bool,
    {
        let mut keys: Vec<(usize, S)> = vec![(0, rule.start.clone())];
        let mut ids: foldhash::HashMap<(usize, S), u32> = Default::default();
        ids.insert(keys[0].clone(), 0);
        // one step's law from a state: the states it reaches, each with its
        // share of the step's face combinations, in the order first met
        let mut step_laws: foldhash::HashMap<(usize, S), Vec<(S, f64)>> = Default::default();
        let mut work = 0usize;
        let mut laws: Vec<Vec<(u32, f64)>> = Vec::new();
        let mut slots: Vec<u32> = Vec::new();
        let mut counted = Vec::new();
        let mut at = 0;
        while at < keys.len() {
            let (i, s) = keys[at].clone();
            at += 1;
            slots.push(if i == rule.steps || (i > 0 && (rule.counted)(i)) {
                counted.push((i, s.clone()));
                (counted.len() - 1) as u32
            } else {
                NONE
            });
            if i == rule.steps {
                laws.push(Vec::new());
                continue;
            }
            let mut j = i + 1;
            while j < rule.steps && !ends(j) && !(rule.counted)(j) {
                j += 1;
            }
            if i == 0 && j == rule.steps {
                return None;
            }
            // the group's law, step by step, equal states merged
            let mut dist: Vec<(S, f64)> = vec![(s, 1.0)];
            for k in i..j {
                let mut next: Vec<(S, f64)> = Vec::new();
                let mut index: foldhash::HashMap<S, usize> = Default::default();
                for (t, p) in dist {
                    let key = (k, t);
                    if !step_laws.contains_key(&key) {
                        let combos =
                            lay_out(&key.1, |d: &mut Digits, t: &mut S| (rule.step)(k, d, t))?;
                        work += combos.len();
                        if work > most_work {
                            return None;
                        }
                        step_laws.insert(key.clone(), merged(combos));
                    }
                    for (u, q) in &step_laws[&key] {
                        match index.get(u) {
                            Some(&x) => next[x].1 += p * q,
                            None => {
                                index.insert(u.clone(), next.len());
                                next.push((u.clone(), p * q));
                            }
                        }
                    }
                }
                dist = next;
            }
            let mut law = Vec::with_capacity(dist.len());
            for (t, p) in dist {
                let key = (j, t);
                let next = keys.len() as u32;
                let id = *ids.entry(key.clone()).or_insert_with(|| {
                    keys.push(key);
                    next
                });
                law.push((id, p));
            }
            if keys.len() > MOST_NODES || law.len() > MOST_COLUMNS {
                return None;
            }
            laws.push(law);
        }
        // each node's first column, then the columns with their nodes packed
        let mut bases = Vec::with_capacity(laws.len());
        let mut total = 0usize;
        for law in &laws {
            bases.push(total as u32);
            total += law.len();
        }
        let packed = |id: u32| {
            pack(&Node {
                size: laws[id as usize].len() as u64,
                base: bases[id as usize],
                slot: slots[id as usize],
            })
        };
        let mut columns = Vec::with_capacity(total);
        for law in &laws {
            if law.is_empty() {
                continue;
            }
            for (keep, &own, &alias) in Alias::new(law).columns() {
                columns.push(LawColumn {
                    keep,
                    own: packed(own),
                    alias: packed(alias),
                });
            }
        }
        // where a lane that has walked its share stands: one column, to itself
        let park = columns.len() as u64 | (1 << 32);
        columns.push(LawColumn {
            keep: u64::MAX,
            own: park,
            alias: park,
        });
        Some(StateLaws {
            start: packed(0),
            park,
            nodes: laws.len(),
            columns,
            counted,
        })
    }

    /// Runs `trials` trials from the first node: at each node one word
    /// picks a column and decides between its two nodes (a node of one
    /// outcome draws nothing). Returns how many trials passed through each
    /// counted node, in [`StateLaws::counted`]'s order.
    pub fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        // four trials walked side by side, a node of each in turn, so one's
        // look-ups do not wait on another's; each lane walks its share of
        // the trials, then stands at the parked node, and counts in its own
        // row, so the loop has no branch but the node's kind
        const LANES: usize = 4;
        let mut counts = vec![0u64; LANES * self.counted.len()];
        let mut left = [0u64; LANES];
        for (l, n) in left.iter_mut().enumerate() {
            *n = trials / LANES as u64 + u64::from((l as u64) < trials % LANES as u64);
        }
        let mut lanes = left.map(|n| if n > 0 { self.start } else { self.park });
        let mut running = trials;
        while running > 0 {
            for l in 0..LANES {
                let n = lanes[l];
                let slot = (n >> 48) as usize;
                if slot != 0 {
                    counts[LANES * (slot - 1) + l] += 1;
                }
                let size = (n >> 32) & 0xffff;
                let base = (n as u32) as usize;
                lanes[l] = if size > 1 {
                    let wide = u128::from(roller.next_word()) * u128::from(size);
                    let c = &self.columns[base + (wide >> 64) as usize];
                    // no branch on the draw: the pair indexed by the compare
                    [c.own, c.alias][usize::from((wide as u64) >= c.keep)]
                } else if size == 1 {
                    self.columns[base].own
                } else {
                    running -= 1;
                    left[l] -= 1;
                    if left[l] > 0 { self.start } else { self.park }
                };
            }
        }
        counts.chunks_exact(LANES).map(|c| c.iter().sum()).collect()
    }

    /// The counted nodes (step index, state), in the order
    /// [`StateLaws::count`] counts them.
    pub fn counted(&self) -> &[(usize, S)] {
        &self.counted
    }

    /// Nodes laid out.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Columns laid out over every node.
    pub fn columns(&self) -> usize {
        self.columns.len() - 1
    }
}

/// A step's face combinations merged into its law: each state reached, in
/// the order first met, with its share of the combinations.
fn merged<S: Clone + Eq + Hash>(combos: Vec<S>) -> Vec<(S, f64)> {
    let all = combos.len() as f64;
    let mut law: Vec<(S, u32)> = Vec::new();
    let mut index: foldhash::HashMap<S, usize> = Default::default();
    for t in combos {
        match index.get(&t) {
            Some(&x) => law[x].1 += 1,
            None => {
                index.insert(t.clone(), law.len());
                law.push((t, 1));
            }
        }
    }
    law.into_iter()
        .map(|(t, n)| (t, f64::from(n) / all))
        .collect()
}

/// Every combination of the faces `run` rolls from `s` (a group of steps),
/// with the state each reaches, or `None` past [`GROUP_FACES`].
fn lay_out<S: Clone>(s: &S, run: impl Fn(&mut Digits, &mut S)) -> Option<Vec<S>> {
    let mut widths: Vec<u32> = Vec::new();
    'layout: loop {
        let size: u64 = widths.iter().map(|&w| u64::from(w)).product();
        let mut out = Vec::with_capacity(size as usize);
        for index in 0..size {
            let mut d = Digits {
                widths: &widths,
                index,
                at: 0,
                change: None,
                stray: 0,
            };
            let mut t = s.clone();
            run(&mut d, &mut t);
            if let Some((at, sides)) = d.change {
                if at == widths.len() {
                    widths.push(sides);
                } else {
                    widths[at] = lcm(widths[at], sides);
                    if widths[at] > WIDEST_DIGIT {
                        return None;
                    }
                }
                if widths.iter().map(|&w| u64::from(w)).product::<u64>() > GROUP_FACES {
                    return None;
                }
                continue 'layout;
            }
            out.push(t);
        }
        return Some(out);
    }
}

/// Dice read from one combination's digits, first die first; the first
/// die the layout cannot show (a position past the digits, or sides that
/// do not divide its digit) is noted, and the layout widens.
#[derive(Debug)]
pub struct Digits<'a> {
    widths: &'a [u32],
    index: u64,
    at: usize,
    /// The first position to add or widen, and the sides it must show.
    change: Option<(usize, u32)>,
    /// Dice shown since the combination left the layout.
    stray: u32,
}

impl Roller for Digits<'_> {
    /// A die of one side shows 1 and takes no position. Once the layout
    /// must change, the faces are a fixed cycle (the state is thrown away),
    /// so a rule that rolls until some face comes up still ends.
    fn roll(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return 1;
        }
        if self.change.is_some() {
            self.stray = self.stray.wrapping_add(1);
            return self.stray % sides + 1;
        }
        let at = self.at;
        let Some(&width) = self.widths.get(at) else {
            self.change = Some((at, sides));
            return self.roll(sides);
        };
        self.at += 1;
        let digit = (self.index % u64::from(width)) as u32;
        self.index /= u64::from(width);
        if width % sides != 0 {
            self.change = Some((at, sides));
            return self.roll(sides);
        }
        digit / (width / sides) + 1
    }
}

/// A [`Mechanic`]'s [`StepModel`] sampled by its state laws where the
/// rule names its groups ([`FacesModel::by_laws`]) and they lay out
/// ([`StateLaws`]), else by its state face tables where they lay out
/// ([`StateFaces`]), by the step model's own sampler otherwise; exact
/// values, the reference sampler and `compare` are the step model's.
pub struct FacesModel<M: Mechanic> {
    inner: StepModel<M>,
    faces: std::sync::OnceLock<Option<StateFaces<M::State>>>,
    laws: std::sync::OnceLock<Option<StateLaws<M::State>>>,
    /// Where the rule's groups end for [`StateLaws`] (none: face tables).
    ends: Option<fn(&M, usize) -> bool>,
    /// The trials a run plans ([`Model::plan`]; 0: not told).
    planned: std::sync::atomic::AtomicU64,
    /// Why there is no exact value, known before any work.
    no_exact: Option<String>,
    /// What the walk does to a state after step `i` (states equal in
    /// every metric merged; nothing by default).
    settle: fn(&M, usize, &mut M::State),
}

/// The sampler's name in the benchmarks and the conformance pins.
pub const STATE_FACES: &str = "state face tables (a group of steps' dice drawn at once)";

/// The name of [`StateLaws`]' sampler.
pub const STATE_LAWS: &str =
    "state laws (a turn or step drawn from its law on the state, a word a draw)";

impl<M: Mechanic> FacesModel<M> {
    /// The model of `mechanic`.
    pub fn new(mechanic: M) -> Self {
        FacesModel {
            inner: StepModel::new(mechanic),
            faces: std::sync::OnceLock::new(),
            laws: std::sync::OnceLock::new(),
            ends: None,
            planned: std::sync::atomic::AtomicU64::new(0),
            no_exact: None,
            settle: |_, _, _| {},
        }
    }

    /// The model whose walk runs `settle` on the state after each step.
    pub fn settling(mut self, settle: fn(&M, usize, &mut M::State)) -> Self {
        self.settle = settle;
        self
    }

    /// The model walked by state laws ([`StateLaws`]): a group of steps
    /// drawn from its law on the state, each group ending before a step
    /// where `ends` says. A rule whose first group would reach the end (the
    /// whole trial drawn from its law) keeps its face tables.
    pub fn by_laws(mut self, ends: fn(&M, usize) -> bool) -> Self {
        self.ends = Some(ends);
        self
    }

    /// The state laws' layout, built the first time the model samples.
    pub fn laws(&self) -> Option<&StateLaws<M::State>> {
        let ends = self.ends?;
        self.laws
            .get_or_init(|| {
                let m = self.inner.mechanic();
                StateLaws::build(
                    &self.steps(),
                    |j| ends(m, j),
                    entries_for(self.planned.load(std::sync::atomic::Ordering::Relaxed)),
                )
            })
            .as_ref()
    }

    /// The rule's steps as the layouts walk them, each settled after.
    // the closure's type cannot be named, so it stays spelled out here
    #[allow(clippy::type_complexity)]
    fn steps(
        &self,
    ) -> Steps<M::State, impl Fn(usize, &mut Digits, &mut M::State) + '_, impl Fn(usize) -> bool>
    {
        let m = self.inner.mechanic();
        Steps {
            start: m.start(),
            steps: m.steps(),
            step: move |i: usize, d: &mut Digits, s: &mut M::State| {
                m.step(i, d, s);
                (self.settle)(m, i, s);
            },
            counted: |_| false,
        }
    }

    /// The model with its exact evaluation skipped up front, for `why`.
    pub fn without_exact(mut self, why: String) -> Self {
        self.no_exact = Some(why);
        self
    }

    /// The layout, built the first time the model samples.
    pub fn faces(&self) -> Option<&StateFaces<M::State>> {
        self.faces
            .get_or_init(|| {
                StateFaces::build(
                    &self.steps(),
                    entries_for(self.planned.load(std::sync::atomic::Ordering::Relaxed)),
                )
            })
            .as_ref()
    }
}

impl<M: Mechanic> Model for FacesModel<M> {
    fn metrics(&self) -> &[MetricDef] {
        self.inner.metrics()
    }

    fn plan(&self, trials: u64) {
        self.inner.plan(trials);
        self.planned
            .store(trials, std::sync::atomic::Ordering::Relaxed);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let (counts, counted) = if let Some(w) = self.laws() {
            (w.count(roller, trials), w.counted())
        } else if let Some(w) = self.faces() {
            (w.count(roller, trials), w.counted())
        } else {
            return self.inner.run_chunk(roller, trials, tally);
        };
        for ((_, s), &count) in counted.iter().zip(&counts) {
            if count > 0 {
                self.inner.mechanic().record(
                    s,
                    &mut Times {
                        tally: &mut *tally,
                        count,
                    },
                );
            }
        }
        tally.add_trials(trials);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.exact_or_why().ok()
    }

    fn exact_or_why(&self) -> Result<Vec<f64>, NoExact> {
        match &self.no_exact {
            Some(why) => Err(NoExact::Other(why.clone())),
            None => self.inner.exact_or_why(),
        }
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.inner.sample_one(roller, values);
    }

    fn sampler(&self) -> Sampler {
        if self.laws().is_some() {
            Sampler::Custom(STATE_LAWS)
        } else if self.faces().is_some() {
            Sampler::Custom(STATE_FACES)
        } else {
            self.inner.sampler()
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.inner.run_reference(roller, trials, tally);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two steps of a D6 that adds a second D6 on a 6, their total the
    /// state (the rule [`exploding_d6_twice`] gives the law of by hand).
    #[allow(clippy::type_complexity)]
    fn exploding_d6_steps() -> Steps<u32, fn(usize, &mut Digits, &mut u32), fn(usize) -> bool> {
        Steps {
            start: 0u32,
            steps: 2,
            step: |_: usize, d: &mut Digits, s: &mut u32| {
                let f = d.roll(6);
                *s += f;
                if f == 6 {
                    *s += d.roll(6);
                }
            },
            counted: |_| false,
        }
    }

    /// The law of two exploding D6 steps' total, by hand: a step shows 1-5
    /// (1/6 each) or 6 plus a second D6, 7-12 (1/36 each); totals 2..=24.
    fn exploding_d6_twice() -> [f64; 25] {
        let mut step = [0.0f64; 13];
        step[1..=5].fill(1.0 / 6.0);
        step[7..=12].fill(1.0 / 36.0);
        let mut law = [0.0f64; 25];
        for a in 1..=12 {
            for b in 1..=12 {
                law[a + b] += step[a] * step[b];
            }
        }
        law
    }

    /// Each of the 23 totals' counts held to its exact binomial law (a
    /// two-sided p-value of 1e-6 each, Bonferroni over 23: 2.3e-5 in all at
    /// a fixed seed).
    fn assert_totals_follow(seen: &[u64; 25], law: &[f64; 25], trials: u64) {
        for t in 2..=24 {
            let p = crate::dice::stats::binomial_p_value(seen[t], trials, law[t]);
            assert!(
                p > 1e-6,
                "total {t}: {} of {trials}, P = {}: p = {p}",
                seen[t],
                law[t]
            );
        }
    }

    /// A layout is kept within half the trials it serves, and untold (0)
    /// or told many, within its bound.
    #[test]
    fn a_layout_is_kept_within_the_trials_it_serves() {
        assert_eq!(entries_for(0), MOST_ENTRIES);
        assert_eq!(entries_for(200_000), 100_000);
        assert_eq!(entries_for(u64::MAX), MOST_ENTRIES);
    }

    /// A D6, then on a 6 another D6 (added), twice over: the walk lays out
    /// both steps from the start (6 x 6 combinations) and counts the
    /// totals; each total's share is held to its exact binomial bound.
    #[test]
    fn a_walk_lays_out_every_combination_and_counts_the_endings() {
        let rule = exploding_d6_steps();
        let w = StateFaces::build(&rule, MOST_ENTRIES).unwrap();
        // step 1: a D6 then a D6 on the first's 6 (36 combinations); the
        // two steps together: 36 * 36 = 1296, within GROUP_FACES
        assert_eq!(w.nodes[0].size, 1296);
        // a lane's word holds two such draws: 1296^2 = 1,679,616 is within
        // BATCH_LIMIT (2^24), 1296^3 is not
        assert_eq!(w.digits_a_word(), 2);
        // totals 2..24: by hand, a step shows 1-5 (1/6 each) or 7-12
        // (1/36 each)
        let law = exploding_d6_twice();
        let trials = 400_000u64;
        let counts = w.count(&mut BatchedRoller::new(3, &[1]), trials);
        assert_eq!(counts.iter().sum::<u64>(), trials);
        // the lanes count every trial once: fewer than the lanes, none,
        // and counts that leave trials over after the lanes
        for few in [0, 1, LANES as u64 - 1, LANES as u64, 5 * LANES as u64 + 3] {
            let counts = w.count(&mut BatchedRoller::new(4, &[1]), few);
            assert_eq!(counts.iter().sum::<u64>(), few, "{few} trials");
        }
        let mut seen = [0u64; 25];
        for ((_, total), n) in w.counted().iter().zip(&counts) {
            seen[*total as usize] += n;
        }
        assert_totals_follow(&seen, &law, trials);
    }

    /// The exploding D6 twice over as state laws, a group a step: each
    /// step's law (1-5 a sixth each, 7-12 a thirty-sixth) drawn from its
    /// alias table, the totals held to their exact binomial bounds; with
    /// both steps in one group it would be the whole trial, and there is
    /// no layout.
    #[test]
    fn state_laws_draw_each_step_from_its_law_and_never_the_whole_trial() {
        let rule = exploding_d6_steps();
        assert!(StateLaws::build(&rule, |_| false, MOST_ENTRIES).is_none());
        let w = StateLaws::build(&rule, |_| true, MOST_ENTRIES).unwrap();
        // the start, 11 totals after a step, 23 after two (2..=24)
        assert_eq!(w.nodes(), 1 + 11 + 23);
        let law = exploding_d6_twice();
        let trials = 400_000u64;
        let mut roller = BatchedRoller::new(3, &[1]);
        let counts = w.count(&mut roller, trials);
        // one word a step
        assert_eq!(roller.words(), 2 * trials);
        assert_eq!(counts.iter().sum::<u64>(), trials);
        let mut seen = [0u64; 25];
        for ((i, total), n) in w.counted().iter().zip(&counts) {
            assert_eq!(*i, 2, "only the endings are counted");
            seen[*total as usize] += n;
        }
        assert_totals_follow(&seen, &law, trials);
    }

    /// State laws count every trial through a counted node, as the face
    /// walk does, and a node of one outcome draws no word.
    #[test]
    fn state_laws_count_every_trial_at_the_counted_steps() {
        let rule = Steps {
            start: 0u32,
            steps: 4,
            step: |i: usize, d: &mut Digits, s: &mut u32| {
                if i != 1 {
                    *s += d.roll(2) - 1;
                }
            },
            counted: |i| i == 2,
        };
        let w = StateLaws::build(&rule, |_| false, MOST_ENTRIES).unwrap();
        let mut roller = BatchedRoller::new(5, &[2]);
        let counts = w.count(&mut roller, 10_000);
        let through_2: u64 = w
            .counted()
            .iter()
            .zip(&counts)
            .filter(|((i, _), _)| *i == 2)
            .map(|(_, n)| n)
            .sum();
        assert_eq!(through_2, 10_000);
        assert_eq!(counts.iter().sum::<u64>(), 20_000);
        // groups 0..2 and 2..4, each a coin or two
        assert_eq!(roller.words(), 20_000);
    }

    /// A counted step stops the group there, and its states are counted
    /// for every trial that passes.
    #[test]
    fn counted_steps_split_the_groups_and_count_every_trial() {
        let rule = Steps {
            start: 0u32,
            steps: 3,
            step: |_: usize, d: &mut Digits, s: &mut u32| *s += d.roll(2) - 1,
            counted: |i| i == 1,
        };
        let w = StateFaces::build(&rule, MOST_ENTRIES).unwrap();
        let counts = w.count(&mut BatchedRoller::new(5, &[2]), 10_000);
        let through_1: u64 = w
            .counted()
            .iter()
            .zip(&counts)
            .filter(|((i, _), _)| *i == 1)
            .map(|(_, n)| n)
            .sum();
        assert_eq!(through_1, 10_000);
        assert_eq!(counts.iter().sum::<u64>(), 20_000);
    }
}

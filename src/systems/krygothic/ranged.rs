//! Ranged combat (Chapter 5): RC dice against a to-hit target of 5 with
//! its modifiers, at most the number before the K of passing dice kept,
//! short and long range, fire modes, the wound roll against body + armour -
//! the number after the K, wounds capped at S, flanking, critical passes
//! and fails. Exact by a dynamic programme over the pool's counts then a
//! binomial wound roll; sampled on real dice.
//!
//! The `ranged` scenario (its parameters and builder) is [`scenario`].

pub mod scenario;

use super::dice::{Critical, Pool, PoolOut, Reading, binomial, count_passes, depth_for, p_meets};
use super::fast::digits;
use crate::dice::{BatchedRoller, GivenFaces, Metric, MetricSink, Roller, Tally, Times};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::Variant;
use crate::systems::{MetricDecl, MetricDef, MetricList, Model, ParamError, Params, Sampler};
use std::collections::BTreeMap;

/// A ranged weapon: "3 values, one before the K, one after the K, and one
/// after the S", with its short and long range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weapon {
    /// Before the K: "a maximum number of dice that pass the to-hit roll".
    pub aim: i32,
    /// After the K: subtracted from the wound target.
    pub damage: i32,
    /// After the S: "one wound each to a maximum of the number after the S".
    pub strength: i32,
    /// "SR - 2 inches or under": +2 RC at or under it.
    pub short_range: Option<f64>,
    /// "LR - 6 inches or over": -1Kx and +1 to hit, per inch over it.
    pub long_range: Option<f64>,
    /// "All weapons that are capable of this mode will have a note".
    pub suppressive: bool,
}

/// "Choose Attack Type": snap, standard, aimed, suppressive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireMode {
    /// "-2 to RC Stat, but two attacks for base AP cost".
    Snap,
    /// "No additional charge".
    Standard,
    /// "+2 to RC stat, but the player must spend 2 extra AP".
    Aimed,
    /// "+2 points" RC, "do NOT roll to wound ... only ... if you get a
    /// critical hit".
    Suppressive,
}

impl FireMode {
    /// From the parameter's word.
    pub fn from_word(w: &str) -> FireMode {
        match w {
            "snap" => FireMode::Snap,
            "aimed" => FireMode::Aimed,
            "suppressive" => FireMode::Suppressive,
            _ => FireMode::Standard,
        }
    }
}

crate::variant_enum! {
    /// Which number "reduces the targets body score when rolling for wounds".
    pub enum WoundBy = "wound_target" {
        /// The number after the K (the worked examples: 3 + 3 - 2 for 3K2S1).
        KValue = "k_value",
        /// The S value ("The weapon strength reduces the targets body score").
        Strength = "strength",
    }
    about: "what reduces the wound target: 'k_value' = the number after the K (the worked examples: 3 + 3 - 2 for 3K2S1); 'strength' = the S value ('The weapon strength reduces the targets body score when rolling for wounds'), which flanking then raises",
}

/// What a ranged wound roll is against (variant `wound_target`).
pub fn wound_by(v: &Params) -> Result<WoundBy, ParamError> {
    WoundBy::read(v)
}

/// Everything about one shot.
#[derive(Clone, Copy, Debug)]
pub struct Shot {
    /// Firer's RC.
    pub rc: i32,
    /// The weapon.
    pub weapon: Weapon,
    /// Distance in inches.
    pub range: f64,
    /// Fire mode.
    pub mode: FireMode,
    /// "at least half hidden by cover": +2.
    pub cover: bool,
    /// Target's Speed ("over 5": +1).
    pub target_speed: i32,
    /// "in the dark": +2.
    pub dark: bool,
    /// "The target is sprinting": +1.
    pub sprinting: bool,
    /// A pinned firer: "must increase their target number to hit by 1".
    pub firer_pinned: bool,
    /// Target's Body.
    pub body: i32,
    /// Target's armour bonus.
    pub armour: i32,
    /// Outside the target's 90 degree arc: +2 to the weapon's strength.
    pub flanking: bool,
    /// The armour "says so": negated when shot from behind.
    pub armour_negated_from_behind: bool,
    /// The 7+ reading.
    pub reading: Reading,
    /// The 18-from-sixes reading.
    pub critical: Critical,
    /// What reduces the wound target.
    pub wound_by: WoundBy,
    /// AP to fire once ("another 2 AP to fire").
    pub fire_ap: i32,
    /// AP spent on this fire mode, if the question is what a budget buys
    /// (otherwise one shot: two attacks for a snap shot).
    pub ap_budget: Option<i32>,
    /// The firer's own Body and armour, if given: what a critical fail's
    /// damage rolls against ("all damage is done to your own unit").
    pub firer: Option<(i32, i32)>,
}

/// A shot with its modifiers applied.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    /// Within reach ("If the distance is so great that the penalties drop
    /// the weapons statistics to 0 or below, it is too far"), and the AP
    /// budget pays for a shot.
    pub can_shoot: bool,
    /// Attacks made (two per snap shot; as many as the AP budget buys).
    pub attacks: u8,
    /// Dice rolled to hit.
    pub dice: i32,
    /// Passing dice kept at most (the number before the K after -Kx).
    pub keep: i32,
    /// The to-hit target.
    pub to_hit: i32,
    /// The wound target.
    pub to_wound: i32,
    /// Wounds at most per attack (the S value).
    pub cap: i32,
    /// Wound rolls only on a critical pass.
    pub criticals_only: bool,
    /// The wound target of the firer's own unit after a critical fail
    /// (its Body + armour less the same number as the target's), if the
    /// firer's Body is given.
    pub own_to_wound: Option<i32>,
    /// AP the attacks cost (shots times the AP of one).
    pub ap_spent: i32,
}

impl Shot {
    /// The long-range penalty: 1 at the long range value, +1 per whole
    /// inch over it ("-1Kx ... AND increase the target number to hit by 1,
    /// PER inch over the long range value").
    pub fn long_penalty(&self) -> i32 {
        match self.weapon.long_range {
            Some(lr) if self.range >= lr => (self.range - lr).floor() as i32 + 1,
            _ => 0,
        }
    }

    /// AP one shot of this mode costs: aimed "must spend 2 extra AP".
    pub fn cost(&self) -> i32 {
        self.fire_ap + if self.mode == FireMode::Aimed { 2 } else { 0 }
    }

    /// Shots made: one, or as many as the AP budget pays for.
    pub fn shots(&self) -> i32 {
        match self.ap_budget {
            None => 1,
            Some(b) if self.cost() <= 0 => b.max(0),
            Some(b) => b / self.cost(),
        }
    }

    /// Attacks made: one shot (two attacks for a snap shot), or as many
    /// shots as the AP budget pays for.
    pub fn attacks(&self) -> u8 {
        let per_shot = if self.mode == FireMode::Snap { 2 } else { 1 };
        (self.shots() * per_shot).clamp(0, 120) as u8
    }

    /// The shot's numbers after every modifier.
    pub fn resolve(&self) -> Resolved {
        let w = &self.weapon;
        let short = w.short_range.is_some_and(|sr| self.range <= sr);
        let long = self.long_penalty();
        let mode_rc = match self.mode {
            FireMode::Snap => -2,
            FireMode::Standard => 0,
            FireMode::Aimed | FireMode::Suppressive => 2,
        };
        let dice = (self.rc + if short { 2 } else { 0 } + mode_rc).max(0);
        let keep = w.aim - long;
        let to_hit = 5
            + if self.cover { 2 } else { 0 }
            + i32::from(self.target_speed > 5)
            + if self.dark { 2 } else { 0 }
            + i32::from(self.sprinting)
            + i32::from(self.firer_pinned)
            + long;
        let flank = if self.flanking { 2 } else { 0 };
        let (reducer, cap) = match self.wound_by {
            WoundBy::KValue => (w.damage + flank, w.strength),
            WoundBy::Strength => (w.strength + flank, w.strength + flank),
        };
        let armour = if self.flanking && self.armour_negated_from_behind {
            0
        } else {
            self.armour
        };
        // the firer's own unit is not flanked by its own shot
        let own_reducer = match self.wound_by {
            WoundBy::KValue => w.damage,
            WoundBy::Strength => w.strength,
        };
        Resolved {
            can_shoot: keep > 0 && self.attacks() > 0,
            attacks: self.attacks(),
            dice,
            keep: keep.max(0),
            to_hit,
            to_wound: self.body + armour - reducer,
            cap: cap.max(0),
            criticals_only: self.mode == FireMode::Suppressive,
            own_to_wound: self.firer.map(|(b, a)| b + a - own_reducer),
            ap_spent: self.shots() * self.cost(),
        }
    }
}

/// What a shot (all its attacks) did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShotOut {
    /// To-hit dice kept (the target "has been hit": a pinning test).
    pub hits: u8,
    /// Wounds caused.
    pub wounds: u8,
    /// A critical pass in some attack.
    pub critical_pass: bool,
    /// A critical fail in some attack.
    pub critical_fail: bool,
    /// Wounds on the firer's own unit from critical fails.
    pub own_wounds: u8,
    /// This trial's wounds count towards "wounds per AP": drawn with
    /// probability 1 / (AP spent), so the mean of the counted wounds is the
    /// expected wounds divided by the AP spent.
    pub per_ap_share: bool,
}

impl ShotOut {
    fn plus(self, o: ShotOut) -> ShotOut {
        ShotOut {
            hits: self.hits + o.hits,
            wounds: self.wounds + o.wounds,
            critical_pass: self.critical_pass || o.critical_pass,
            critical_fail: self.critical_fail || o.critical_fail,
            own_wounds: self.own_wounds + o.own_wounds,
            per_ap_share: false,
        }
    }
}

/// Every metric of the ranged scenario.
pub const METRICS: [MetricDecl; 9] = [
    MetricDecl::probability(
        "p_in_reach",
        "P(in reach)",
        "1 when the long-range penalties leave the weapon at least 1K, else 0",
    ),
    MetricDecl::probability(
        "p_hit",
        "P(hit)",
        "P(at least one to-hit die kept): the target takes a pinning test",
    ),
    MetricDecl::mean("mean_hits", "mean hits", "expected to-hit dice kept"),
    MetricDecl::probability("p_wound", "P(wound)", "P(at least one wound)"),
    MetricDecl::mean(
        "mean_wounds",
        "mean wounds",
        "expected wounds (capped at S per attack, doubled on a critical pass)",
    ),
    MetricDecl::probability(
        "p_critical_pass",
        "P(critical pass)",
        "P(a score of 18 from sixes: double damage)",
    ),
    MetricDecl::probability(
        "p_critical_fail",
        "P(critical fail)",
        "P(every to-hit die a 1: the damage turns on the firer's own unit)",
    ),
    MetricDecl::probability("wounds={k}", "P({k} wounds)", "P(exactly k wounds)"),
    MetricDecl::probability("hits={k}", "P({k} hits)", "P(exactly k to-hit dice kept)"),
];

/// Fire modes per AP: the expected wounds per AP spent, and whether this
/// mode is the best of snap, standard and aimed here.
pub const PER_AP_METRICS: [MetricDecl; 2] = [
    MetricDecl::mean(
        "wounds_per_ap",
        "wounds per AP",
        "expected wounds divided by the AP the attacks cost (0 out of reach)",
    ),
    MetricDecl::yes_no(
        "is_best_mode",
        "is the best fire mode (most wounds per AP)",
        "1 when this mode gives the most wounds per AP of snap, standard and aimed at this range and target (0 out of reach, or suppressive)",
    ),
];

/// The firer's own wounds after a critical fail (when its Body is given).
pub const OWN_METRICS: [MetricDecl; 2] = [
    MetricDecl::mean(
        "mean_own_wounds",
        "mean wounds on the firer's own unit",
        "critical fail (all 1s): the dice the weapon could keep roll to wound against the firer's own Body + armour, capped at S",
    ),
    MetricDecl::probability(
        "p_own_wound",
        "P(firer's own unit wounded)",
        "P(a critical fail wounds the firer's own unit)",
    ),
];

/// Every metric a ranged model may report, in order.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS
        .iter()
        .chain(&PER_AP_METRICS)
        .chain(&OWN_METRICS)
        .copied()
        .collect()
}

/// Expected wounds per AP spent of `shot` (0 when it cannot shoot).
pub fn wounds_per_ap(shot: &Shot) -> f64 {
    let rule = RangedRule::new(*shot);
    if !rule.r.can_shoot || rule.r.ap_spent <= 0 {
        return 0.0;
    }
    let mean: f64 = rule
        .law()
        .iter()
        .map(|(o, p)| f64::from(o.wounds) * p)
        .sum();
    mean / f64::from(rule.r.ap_spent)
}

/// Whether `shot`'s mode gives the most wounds per AP of snap, standard
/// and aimed (one shot of each, the rest of the shot the same).
pub fn is_best_mode(shot: &Shot) -> bool {
    if shot.mode == FireMode::Suppressive || !shot.resolve().can_shoot {
        return false;
    }
    let of = |mode| {
        wounds_per_ap(&Shot {
            mode,
            ap_budget: None,
            ..*shot
        })
    };
    let here = of(shot.mode);
    [FireMode::Snap, FireMode::Standard, FireMode::Aimed]
        .into_iter()
        .all(|m| of(m) <= here + 1e-12)
}

/// The ranged rule with its metric handles.
pub struct RangedRule {
    shot: Shot,
    r: Resolved,
    pool: Pool,
    list: MetricList,
    m: [Metric; 7],
    wounds: Vec<Metric>,
    hits: Vec<Metric>,
    per_ap: Metric,
    best: (Metric, bool),
    own: Option<[Metric; 2]>,
}

impl RangedRule {
    /// The rule for `shot`.
    pub fn new(shot: Shot) -> Self {
        let r = shot.resolve();
        let pool = Pool {
            dice: r.dice.clamp(0, 60) as u8,
            keep: r.keep.clamp(0, 60) as u8,
            target: r.to_hit,
            reading: shot.reading,
            critical: shot.critical,
        };
        let mut list = MetricList::new();
        let [a, b, c, d, e, f, g, wounds, hits] = &METRICS;
        let m = [a, b, c, d, e, f, g].map(|x| list.add(x));
        let per = i32::from(pool.keep).min(r.cap) * 2;
        let wounds = list.family(wounds, 0..=per * i32::from(r.attacks));
        let hits = list.family(hits, 0..=i32::from(pool.keep) * i32::from(r.attacks));
        let per_ap = list.add(&PER_AP_METRICS[0]);
        let best = (list.add(&PER_AP_METRICS[1]), false);
        let own = r
            .own_to_wound
            .map(|_| [list.add(&OWN_METRICS[0]), list.add(&OWN_METRICS[1])]);
        RangedRule {
            shot,
            r,
            pool,
            list,
            m,
            wounds,
            hits,
            per_ap,
            best,
            own,
        }
    }

    /// The shot after modifiers.
    pub fn resolved(&self) -> Resolved {
        self.r
    }

    /// The rule reporting whether its mode is the best per AP (computed
    /// once, when the model is built).
    pub fn with_best_mode(mut self) -> Self {
        self.best.1 = is_best_mode(&self.shot);
        self
    }

    /// The own-damage roll of a critical fail: the dice the weapon could
    /// keep and their target, or none.
    fn own_roll(&self, po: PoolOut) -> Option<(u32, i32)> {
        match (po.critical_fail, self.r.own_to_wound) {
            (true, Some(t)) => Some((self.r.dice.min(self.r.keep).max(0) as u32, t)),
            _ => None,
        }
    }

    /// Wounds from `passes` passing wound dice of an attack.
    fn wounds_of(&self, po: PoolOut, passes: u32) -> u8 {
        if po.critical_fail || (self.r.criticals_only && !po.critical_pass) {
            return 0;
        }
        let w = passes.min(self.r.cap as u32) as u8;
        if po.critical_pass { 2 * w } else { w }
    }

    /// Wound dice rolled for an attack.
    fn wound_dice(&self, po: PoolOut) -> u32 {
        if po.critical_fail || (self.r.criticals_only && !po.critical_pass) {
            0
        } else {
            u32::from(po.kept)
        }
    }

    /// One attack on real dice.
    pub fn attack<R: Roller>(&self, dice: &mut R) -> ShotOut {
        let po = self.pool.roll(dice);
        let n = self.wound_dice(po);
        let passes = count_passes(dice, n, self.r.to_wound, self.shot.reading);
        self.attack_out(dice, po, passes)
    }

    /// An attack's outcome from its to-hit pool and wound passes, rolling
    /// the firer's own wound dice on a critical fail that calls for them.
    fn attack_out<R: Roller>(&self, dice: &mut R, po: PoolOut, passes: u32) -> ShotOut {
        let own = match self.own_roll(po) {
            Some((n, t)) => count_passes(dice, n, t, self.shot.reading),
            None => 0,
        };
        self.attack_outcome(po, passes, own)
    }

    /// An attack's outcome from its to-hit pool, its wound passes and the
    /// passes of the firer's own wound dice (0 where none are rolled).
    fn attack_outcome(&self, po: PoolOut, passes: u32, own_passes: u32) -> ShotOut {
        ShotOut {
            hits: po.kept,
            wounds: self.wounds_of(po, passes),
            critical_pass: po.critical_pass,
            critical_fail: po.critical_fail,
            own_wounds: own_passes.min(self.r.cap.max(0) as u32) as u8,
            per_ap_share: false,
        }
    }

    /// The exact law of one attack.
    pub fn attack_law(&self) -> Vec<(ShotOut, f64)> {
        let pw = p_meets(self.r.to_wound, self.shot.reading);
        let mut out: BTreeMap<ShotOut, f64> = BTreeMap::new();
        for (po, p) in self.pool.law() {
            let n = self.wound_dice(po);
            let own: Vec<f64> = match self.own_roll(po) {
                Some((n, t)) => binomial(n, p_meets(t, self.shot.reading)),
                None => vec![1.0],
            };
            for (passes, q) in binomial(n, pw).into_iter().enumerate() {
                for (own_passes, r) in own.iter().enumerate() {
                    let o = ShotOut {
                        hits: po.kept,
                        wounds: self.wounds_of(po, passes as u32),
                        critical_pass: po.critical_pass,
                        critical_fail: po.critical_fail,
                        own_wounds: own_passes.min(self.r.cap.max(0) as usize) as u8,
                        per_ap_share: false,
                    };
                    *out.entry(o).or_insert(0.0) += p * q * r;
                }
            }
        }
        out.into_iter().collect()
    }
}

impl Outcomes for RangedRule {
    type Out = ShotOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> ShotOut {
        if !self.r.can_shoot {
            return ShotOut::default();
        }
        let mut o = self.attack(dice);
        for _ in 1..self.r.attacks {
            o = o.plus(self.attack(dice));
        }
        o.per_ap_share = dice.roll(self.r.ap_spent.max(1) as u32) == 1;
        o
    }

    fn law(&self) -> Vec<(ShotOut, f64)> {
        if !self.r.can_shoot {
            return vec![(ShotOut::default(), 1.0)];
        }
        let one = self.attack_law();
        let mut all = one.clone();
        for _ in 1..self.r.attacks {
            let mut next: BTreeMap<ShotOut, f64> = BTreeMap::new();
            for (a, p) in &all {
                for (b, q) in &one {
                    *next.entry(a.plus(*b)).or_insert(0.0) += p * q;
                }
            }
            all = next.into_iter().collect();
        }
        // the share of one AP: a draw of 1 in the AP spent
        let q = 1.0 / f64::from(self.r.ap_spent.max(1));
        all.into_iter()
            .flat_map(|(o, p)| {
                [
                    (
                        ShotOut {
                            per_ap_share: true,
                            ..o
                        },
                        p * q,
                    ),
                    (o, p * (1.0 - q)),
                ]
            })
            .filter(|x| x.1 > 0.0)
            .collect()
    }

    fn record(&self, o: &ShotOut, sink: &mut impl MetricSink) {
        let [reach, hit, hits, wound, wounds, cpass, cfail] = self.m;
        sink.record(reach, u64::from(self.r.can_shoot));
        sink.record(hit, u64::from(o.hits > 0));
        sink.record(hits, u64::from(o.hits));
        sink.record(wound, u64::from(o.wounds > 0));
        sink.record(wounds, u64::from(o.wounds));
        sink.record(cpass, u64::from(o.critical_pass));
        sink.record(cfail, u64::from(o.critical_fail));
        sink.record(self.wounds[usize::from(o.wounds)], 1);
        sink.record(self.hits[usize::from(o.hits)], 1);
        let counted = self.r.can_shoot && o.per_ap_share;
        sink.record(self.per_ap, if counted { u64::from(o.wounds) } else { 0 });
        sink.record(self.best.0, u64::from(self.best.1));
        if let Some([mean, any]) = self.own {
            sink.record(mean, u64::from(o.own_wounds));
            sink.record(any, u64::from(o.own_wounds > 0));
        }
    }
}

/// Kry-Gothic ranged fire sampled an attack a word: each step's dice are
/// real dice read as one face index of a table laid out once per model. A
/// word splits (multiply-high) into the to-hit pool's face of `6^dice`,
/// read through a table to its class (kept passes, critical pass, critical
/// fail), and a second face of `6^keep` wound dice times the AP spent: the
/// wound dice (the first `kept` of them roll against the target, or on a
/// critical fail the firer's own wound roll), and the 1-in-AP draw of the
/// wounds-per-AP share. Each class's table of second faces holds the
/// attack's outcome as its index in a dense table, so an attack is two
/// look-ups, no branch; a trial's outcome is counted in four interleaved
/// histograms and recorded once per outcome at the chunk's end. It applies
/// where no die of either roll is re-rolled (to-hit, wound and own-wound
/// targets of 6 or less, criticals by three sixes) and the faces fit;
/// elsewhere the rule rolls on real dice, counted ([`OutcomeModel`]).
pub struct RangedModel {
    model: OutcomeModel<RangedRule>,
    faces: Option<AttackFaces>,
}

/// Most faces of the to-hit pool's table (`6^5`).
const FACES: u32 = 7776;

/// Most entries of the class tables together.
const MOST_ENTRIES: usize = 1 << 18;

/// Most distinct outcomes counted in the dense table.
const DENSE_OUTCOMES: usize = 1 << 16;

/// Largest product of the faces drawn from one word: every face index then
/// comes up `floor` or `ceil` of `2^64 / N` times, a relative bias of at
/// most `2^-32` a trial.
const WORD_FACES: u64 = 1 << 32;

/// The wounds-per-AP share's flag in a dense outcome index (its three low
/// bits: critical pass 1, critical fail 2, share 4).
const SHARE: u32 = 4;

struct AttackFaces {
    /// `6^dice`: the to-hit pool's faces.
    pool_faces: u64,
    /// `6^keep`: the wound faces.
    wound_faces: u64,
    /// The wound faces times the AP spent: the second face's range on a
    /// trial's first attack.
    rest_faces: u64,
    /// Each to-hit face's class, as the offset of its class's table in
    /// `entry`.
    class_at: Vec<u32>,
    /// Per class, per second face: the attack's dense index (hits, wounds
    /// and own wounds in the high bits, summed over a trial's attacks; the
    /// three flags in the low bits).
    entry: Vec<u32>,
    /// Attacks a trial.
    attacks: u8,
    /// Sizes of the dense outcome table's axes: hits, wounds, own wounds.
    hits: usize,
    wounds: usize,
    own: usize,
}

impl AttackFaces {
    fn new(rule: &RangedRule) -> Option<Self> {
        let pool = rule.pool;
        let r = rule.r;
        let settles = |target: i32| depth_for(target, rule.shot.reading) == 1;
        if !r.can_shoot
            || pool.critical != Critical::ThreeSixes
            || !settles(pool.target)
            || !settles(r.to_wound)
            || r.own_to_wound.is_some_and(|t| !settles(t))
        {
            return None;
        }
        let pool_faces = 6u32
            .checked_pow(u32::from(pool.dice))
            .filter(|&f| f <= FACES)?;
        let keep = pool.keep.min(pool.dice);
        let wound_faces = 6u32.pow(u32::from(keep));
        let ap = r.ap_spent.max(1) as u64;
        let rest_faces = u64::from(wound_faces) * ap;
        if u64::from(pool_faces) * rest_faces > WORD_FACES {
            return None;
        }
        let attacks = usize::from(r.attacks);
        let most_wounds = 2 * usize::from(keep).min(r.cap.max(0) as usize) * attacks;
        let mut faces = AttackFaces {
            pool_faces: u64::from(pool_faces),
            wound_faces: u64::from(wound_faces),
            rest_faces,
            class_at: Vec::with_capacity(pool_faces as usize),
            entry: Vec::new(),
            attacks: r.attacks,
            hits: usize::from(keep) * attacks + 1,
            wounds: most_wounds + 1,
            own: usize::from(keep) * attacks + 1,
        };
        if faces.outcomes() > DENSE_OUTCOMES {
            return None;
        }
        let mut classes: Vec<PoolOut> = Vec::new();
        for i in 0..pool_faces {
            let po = pool.roll(&mut GivenFaces::new(&digits(i, u32::from(pool.dice))));
            let class = match classes.iter().position(|c| *c == po) {
                Some(c) => c,
                None => {
                    classes.push(po);
                    if classes.len() * rest_faces as usize > MOST_ENTRIES {
                        return None;
                    }
                    classes.len() - 1
                }
            };
            faces.class_at.push((class as u64 * rest_faces) as u32);
        }
        let wound_digits: Vec<Vec<u32>> = (0..wound_faces)
            .map(|j| digits(j, u32::from(keep)))
            .collect();
        let passes = |d: &[u32], n: u32, target: i32| {
            d[..n as usize]
                .iter()
                .filter(|&&f| f as i32 >= target)
                .count() as u32
        };
        for po in classes {
            for rest in 0..rest_faces {
                let d = &wound_digits[(rest % u64::from(wound_faces)) as usize];
                let own = match rule.own_roll(po) {
                    Some((n, t)) => passes(d, n, t),
                    None => 0,
                };
                let mut o =
                    rule.attack_outcome(po, passes(d, rule.wound_dice(po), r.to_wound), own);
                // the share is drawn once a trial: on the first attack
                o.per_ap_share = rest < u64::from(wound_faces);
                faces.entry.push(faces.index(&o) as u32);
            }
        }
        Some(faces)
    }

    /// Cells of the dense table: hits x wounds x own wounds x three flags.
    fn outcomes(&self) -> usize {
        self.hits * self.wounds * self.own * 8
    }

    fn index(&self, o: &ShotOut) -> usize {
        let flags = usize::from(o.critical_pass)
            | usize::from(o.critical_fail) << 1
            | usize::from(o.per_ap_share) << 2;
        ((usize::from(o.hits) * self.wounds + usize::from(o.wounds)) * self.own
            + usize::from(o.own_wounds))
            * 8
            + flags
    }

    fn outcome(&self, i: usize) -> ShotOut {
        let flags = i % 8;
        let rest = i / 8;
        ShotOut {
            hits: (rest / self.own / self.wounds) as u8,
            wounds: (rest / self.own % self.wounds) as u8,
            own_wounds: (rest % self.own) as u8,
            critical_pass: flags & 1 != 0,
            critical_fail: flags & 2 != 0,
            per_ap_share: flags & 4 != 0,
        }
    }

    /// One attack from one word: its dense index, the share drawn from
    /// the word's second face (`rest` faces: all of them on a trial's
    /// first attack, the wound faces alone on the others).
    #[inline(always)]
    fn attack(&self, word: u64, rest: u64) -> u32 {
        let wide = u128::from(word) * u128::from(self.pool_faces);
        let class = self.class_at[(wide >> 64) as usize];
        let second = ((u128::from(wide as u64) * u128::from(rest)) >> 64) as u32;
        self.entry[(class + second) as usize]
    }

    /// Counts `trials` trials by their dense index.
    fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let cells = self.outcomes();
        // four histograms side by side, trial after trial in turn, so a
        // run of the same outcome does not wait on its own last count
        let mut counts = vec![0u64; 4 * cells];
        if self.attacks == 1 {
            let mut left = trials;
            while left >= 4 {
                for lane in 0..4 {
                    let e = self.attack(roller.next_word(), self.rest_faces) as usize;
                    counts[4 * e + lane] += 1;
                }
                left -= 4;
            }
            for _ in 0..left {
                let e = self.attack(roller.next_word(), self.rest_faces) as usize;
                counts[4 * e] += 1;
            }
        } else {
            let mut lane = 0;
            for _ in 0..trials {
                let first = self.attack(roller.next_word(), self.rest_faces);
                let (mut sum, mut flags) = (first >> 3, first & 7);
                for _ in 1..self.attacks {
                    let e = self.attack(roller.next_word(), self.wound_faces);
                    sum += e >> 3;
                    flags |= e & !SHARE & 7;
                }
                counts[4 * ((sum << 3 | flags) as usize) + lane] += 1;
                lane = (lane + 1) & 3;
            }
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

impl RangedModel {
    /// The model of `rule`, with its face tables where they apply.
    pub fn new(rule: RangedRule) -> Self {
        let faces = AttackFaces::new(&rule);
        RangedModel {
            model: OutcomeModel::new(rule),
            faces,
        }
    }
}

impl Model for RangedModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn plan(&self, trials: u64) {
        self.model.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let Some(f) = &self.faces else {
            return self.model.run_chunk(roller, trials, tally);
        };
        let rule = self.model.rule();
        for (i, &count) in f.count(roller, trials).iter().enumerate() {
            if count > 0 {
                rule.record(
                    &f.outcome(i),
                    &mut Times {
                        tally: &mut *tally,
                        count,
                    },
                );
            }
        }
        tally.add_trials(trials);
    }

    fn sampler(&self) -> Sampler {
        if self.faces.is_some() {
            Sampler::Custom("attack face tables (an attack a word)")
        } else {
            self.model.sampler()
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Dice that come up as scripted.
    pub struct Script(pub Vec<u32>, pub usize);

    impl Roller for Script {
        fn roll(&mut self, _sides: u32) -> u32 {
            let f = self.0[self.1];
            self.1 += 1;
            f
        }
    }

    pub const PISTOL: Weapon = Weapon {
        aim: 3,
        damage: 2,
        strength: 1,
        short_range: Some(2.0),
        long_range: Some(6.0),
        suppressive: false,
    };

    pub fn shot(rc: i32, range: f64, reading: Reading) -> Shot {
        Shot {
            rc,
            weapon: PISTOL,
            range,
            mode: FireMode::Standard,
            cover: false,
            target_speed: 3,
            dark: false,
            sprinting: false,
            firer_pinned: false,
            body: 3,
            armour: 3,
            flanking: false,
            armour_negated_from_behind: false,
            reading,
            critical: Critical::ThreeSixes,
            wound_by: WoundBy::KValue,
            fire_ap: 2,
            ap_budget: None,
            firer: None,
        }
    }

    /// "So the pistol has a long range of 6', so firing at this distance
    /// requires the unit to -1Kx ... (resulting in a 2K1 ...), and increase
    /// the target number to hit by 1. If the unit wants to fire 9', they
    /// take a -4Kx penalty ... too far for the pistol to reach." Example #3:
    /// "shoot 7 inches. So the gun drops to 1K2S1 (-2Kx), and the target
    /// number is raised to 7".
    #[test]
    fn the_pistol_range_examples() {
        let at = |range| shot(3, range, Reading::Table).resolve();
        let six = at(6.0);
        assert_eq!((six.keep, six.to_hit, six.can_shoot), (2, 6, true));
        let seven = at(7.0);
        assert_eq!((seven.keep, seven.to_hit, seven.can_shoot), (1, 7, true));
        assert!(!at(9.0).can_shoot);
        assert!(!at(8.0).can_shoot, "8 inches: -3Kx leaves 0K2");
        let mid = at(4.0);
        assert_eq!((mid.dice, mid.keep, mid.to_hit), (3, 3, 5));
        // "SR - 2 inches or under": +2 RC
        assert_eq!(at(2.0).dice, 5);
        assert_eq!(at(2.5).dice, 3);
        // 6.5 inches: still the first inch over
        assert_eq!(at(6.5).keep, 2);
    }

    /// The to-hit and wound examples of Chapter 5 on scripted dice.
    #[test]
    fn the_worked_examples() {
        // Example #1: RC 3, "rolls 4, 2 and 6 ... one dice passes".
        let rule = RangedRule::new(shot(3, 4.0, Reading::Table));
        let po = rule.pool.roll(&mut Script(vec![4, 2, 6], 0));
        assert_eq!(po.kept, 1);
        // Example #2: RC 5, "6, 8, 1, 5, 6 ... 4 dice pass ... can only keep
        // three" (the 8 is a 6 and a 2; against a 5 the re-roll of a 6 is
        // not needed, so the sampler does not roll it)
        let rule = RangedRule::new(shot(5, 4.0, Reading::Table));
        let dice = vec![6, 6, 1, 5, 6];
        let po = rule.pool.roll(&mut Script(dice, 0));
        assert_eq!(po.kept, 3);
        // Example #3: 7 inches, RC 3, target 7: "8, 7 and 8 ... only 1 dice
        // passes". The additive reading passes all three and keeps one;
        // the table (a 6 then 3+) passes none of 6+2, 6+1, 6+2.
        for (reading, kept) in [(Reading::Additive, 1), (Reading::Table, 0)] {
            let rule = RangedRule::new(shot(3, 7.0, reading));
            assert_eq!(rule.r.to_hit, 7);
            let po = rule.pool.roll(&mut Script(vec![6, 2, 6, 1, 6, 2], 0));
            assert_eq!(po.kept, kept, "{reading:?}");
        }
        // Wound Example#1: "body (3) + armour (3) - the number after the K
        // (3K2S1, so 2). This gives as a target of 4 ... gets a 3".
        let rule = RangedRule::new(shot(3, 4.0, Reading::Table));
        assert_eq!(rule.r.to_wound, 4);
        assert_eq!(
            count_passes(&mut Script(vec![3], 0), 1, 4, Reading::Table),
            0
        );
        // Wound Example#2: "3 dice ... 4, 5 and 2. 2 dice pass, but the S
        // value is capped at 1 ... causes 1 wound".
        let passes = count_passes(&mut Script(vec![4, 5, 2], 0), 3, 4, Reading::Table);
        assert_eq!(passes, 2);
        let po = PoolOut {
            kept: 3,
            ..PoolOut::default()
        };
        assert_eq!(rule.wounds_of(po, passes), 1);
    }

    #[test]
    fn modifiers_flanking_and_readings() {
        let mut s = shot(3, 4.0, Reading::Table);
        s.cover = true;
        s.target_speed = 6;
        s.dark = true;
        s.sprinting = true;
        s.firer_pinned = true;
        assert_eq!(s.resolve().to_hit, 5 + 2 + 1 + 2 + 1 + 1);
        let mut s = shot(3, 4.0, Reading::Table);
        s.flanking = true;
        assert_eq!(s.resolve().to_wound, 3 + 3 - 4);
        s.armour_negated_from_behind = true;
        assert_eq!(s.resolve().to_wound, 3 - 4);
        s.wound_by = WoundBy::Strength;
        assert_eq!((s.resolve().to_wound, s.resolve().cap), (3 - 3, 3));
        let mut s = shot(3, 4.0, Reading::Table);
        s.mode = FireMode::Snap;
        assert_eq!((s.resolve().dice, s.resolve().attacks), (1, 2));
        s.mode = FireMode::Aimed;
        assert_eq!(s.resolve().dice, 5);
        // a budget of 8 AP: aimed shots cost 4, snap shots 2 for two attacks
        s.ap_budget = Some(8);
        assert_eq!(s.attacks(), 2);
        s.mode = FireMode::Snap;
        assert_eq!(s.attacks(), 8);
        s.mode = FireMode::Standard;
        assert_eq!(s.attacks(), 4);
        s.ap_budget = Some(1);
        assert!(!s.resolve().can_shoot);
    }

    /// "If at any point you roll all 1's for you're to hit roll, all
    /// damage is done to your own unit": the pistol's three dice all 1s,
    /// then its three dice against the firer's own Body 2 + 0 - 2, capped
    /// at S1; the target takes nothing.
    #[test]
    fn a_critical_fail_wounds_the_firer() {
        let mut s = shot(3, 4.0, Reading::Table);
        s.firer = Some((2, 0));
        let rule = RangedRule::new(s);
        assert_eq!(rule.r.own_to_wound, Some(0));
        let o = rule.attack(&mut Script(vec![1, 1, 1, 4, 2, 5], 0));
        assert!(o.critical_fail);
        assert_eq!((o.wounds, o.own_wounds), (0, 1));
        // against Body 5 + armour 1 - 2 = 4: one die of 4 passes
        s.firer = Some((5, 1));
        let rule = RangedRule::new(s);
        let o = rule.attack(&mut Script(vec![1, 1, 1, 3, 4, 1], 0));
        assert_eq!(o.own_wounds, 1);
        let o = rule.attack(&mut Script(vec![1, 1, 1, 3, 3, 1], 0));
        assert_eq!(o.own_wounds, 0);
        // exactly: P(all 1s) x P(a die of three meets 4)
        let own: f64 = rule
            .law()
            .iter()
            .map(|(o, p)| f64::from(o.own_wounds) * p)
            .sum();
        let expect = (1.0f64 / 6.0).powi(3) * (1.0 - 0.5f64.powi(3));
        assert!((own - expect).abs() < 1e-15, "{own} vs {expect}");
    }

    /// Wounds per AP: a standard shot's wounds over its 2 AP, a snap
    /// shot's two attacks over 2 AP, an aimed shot's over 4; a budget buys
    /// more shots at the same rate.
    #[test]
    fn wounds_per_ap_and_the_best_mode() {
        let mean = |s: &Shot| -> f64 {
            RangedRule::new(*s)
                .law()
                .iter()
                .map(|(o, p)| f64::from(o.wounds) * p)
                .sum()
        };
        let mut s = shot(3, 4.0, Reading::Table);
        let mut rates = Vec::new();
        for (mode, ap) in [
            (FireMode::Snap, 2.0),
            (FireMode::Standard, 2.0),
            (FireMode::Aimed, 4.0),
        ] {
            s.mode = mode;
            s.ap_budget = None;
            let rate = wounds_per_ap(&s);
            assert!((rate - mean(&s) / ap).abs() < 1e-15, "{mode:?}");
            s.ap_budget = Some(8);
            assert!((wounds_per_ap(&s) - rate).abs() < 1e-12, "{mode:?}");
            rates.push(rate);
        }
        let best = rates.iter().cloned().fold(f64::MIN, f64::max);
        for (i, mode) in [FireMode::Snap, FireMode::Standard, FireMode::Aimed]
            .into_iter()
            .enumerate()
        {
            s.mode = mode;
            assert_eq!(is_best_mode(&s), rates[i] == best, "{mode:?}");
        }
        assert_eq!(rates.iter().filter(|r| **r == best).count(), 1);
        // out of reach: no mode is best
        let far = Shot {
            range: 9.0,
            ..shot(3, 4.0, Reading::Table)
        };
        assert!(!is_best_mode(&far) && wounds_per_ap(&far) == 0.0);
    }

    /// The attack face tables at fixed seeds, every dense cell held to the
    /// rule's exact law by Bernstein's bound (Bonferroni over the cells):
    /// the pistol's first test point (one attack a trial, the share of 2
    /// AP on every other trial), a snap shot (two attacks a trial, one
    /// share), a critical fail on the firer's own unit, and an aimed shot
    /// over a budget (4 AP a shot). By hand at the first point: a
    /// critical pass is three sixes, 1/216; a critical fail three 1s,
    /// 1/216; the share is 1 in 2.
    #[test]
    fn attack_face_tables_follow_the_law() {
        use super::super::fast::check::counts_match;
        let mut snap = shot(3, 4.0, Reading::Table);
        snap.mode = FireMode::Snap;
        let mut own = shot(3, 4.0, Reading::Table);
        own.firer = Some((2, 1));
        let mut aimed = shot(3, 4.0, Reading::Table);
        aimed.mode = FireMode::Aimed;
        aimed.ap_budget = Some(8);
        for (what, s) in [
            ("pistol", shot(3, 4.0, Reading::Table)),
            ("snap", snap),
            ("own", own),
            ("aimed", aimed),
        ] {
            let rule = RangedRule::new(s);
            let law = rule.law();
            let model = RangedModel::new(rule);
            let f = model.faces.as_ref().expect("the faces fit");
            let mut probs = vec![0.0; f.outcomes()];
            for (o, p) in &law {
                probs[f.index(o)] += p;
            }
            let trials = 2_000_000;
            let counts = f.count(&mut BatchedRoller::new(5, &[1]), trials);
            counts_match(what, &counts, &probs);
            if what == "pistol" {
                let share = |pred: &dyn Fn(&ShotOut) -> bool| -> u64 {
                    let c = counts.iter().enumerate();
                    c.filter(|(i, _)| pred(&f.outcome(*i))).map(|x| x.1).sum()
                };
                let n = trials as f64;
                let bound = |p: f64| super::super::fast::check::bernstein(n, p, 1e-7);
                for (pred, p) in [
                    (
                        &(|o: &ShotOut| o.critical_pass) as &dyn Fn(&ShotOut) -> bool,
                        1.0 / 216.0,
                    ),
                    (&|o: &ShotOut| o.critical_fail, 1.0 / 216.0),
                    (&|o: &ShotOut| o.per_ap_share, 0.5),
                ] {
                    let c = share(pred) as f64;
                    assert!((c - n * p).abs() <= bound(p), "{c} vs {}", n * p);
                }
            }
        }
    }

    #[test]
    fn exact_law_matches_enumerating_every_roll() {
        use crate::dice::enumerate;
        for mode in [FireMode::Standard, FireMode::Snap, FireMode::Suppressive] {
            for reading in [Reading::Table, Reading::Additive] {
                let mut s = shot(2, 6.0, reading);
                s.mode = mode;
                s.armour = 5; // wound target 6
                s.firer = Some((2, 1)); // own target 1: every die passes
                let rule = RangedRule::new(s);
                let law = rule.law();
                let brute = enumerate(1 << 22, |r| rule.sample(r)).unwrap();
                for (o, p) in &law {
                    let q: f64 = brute.iter().filter(|(x, _)| x == o).map(|x| x.1).sum();
                    assert!(
                        (p - q).abs() < 1e-10,
                        "{mode:?} {reading:?} {o:?}: {p} vs {q}"
                    );
                }
                let total: f64 = law.iter().map(|x| x.1).sum();
                assert!((total - 1.0).abs() < 1e-12);
            }
        }
    }
}

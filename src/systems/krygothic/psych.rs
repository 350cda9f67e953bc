//! Psychology (Chapter 6: pinning, fear, pure horror), action points and
//! order combos (Chapter 3) and the damaged-structure event (Chapter 5).
//! Each is a short closed form, exact, beside a sampler on real dice.

use super::dice::{Reading, attribute_check, p_attribute_check, seven_plus};
use super::fast::{CheckRuns, p_check};
use crate::dice::{Metric, MetricSink, Roller, enumerate};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::Variant;
use crate::systems::{FromParam, Opt, ParamDecl, ParamGroup};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, Params};
use crate::systems::{Refusal, Scenario};
use std::marker::PhantomData;

/// The `pinning` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const PINNING_SCENARIO: Scenario = Scenario {
    name: "pinning",
    about: "the pinning test after being shot at, and the AP spent re-rolling it",
    seed_section: "Chapter 6: Pinning",
    params: PinningParams::decls,
    metrics: || PINNING_METRICS.to_vec(),
    build: build_pinning,
    variants: &["seven_plus", "pinning_hit"],
    test_points: PINNING_POINTS,
    refusals: &[Refusal {
        what: "no shooters",
        point: 0,
        set: &[("shooters", "0")],
        unset: &[],
        field: "shooters",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::krygothic::naive::PINNING,
};

/// The `fear` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const FEAR_SCENARIO: Scenario = Scenario {
    name: "fear",
    about: "WILL tests against fear and pure horror",
    seed_section: "Chapter 6: Fear; Pure horror",
    params: FearParams::decls,
    metrics: || FEAR_METRICS.to_vec(),
    build: build_fear,
    variants: &["seven_plus", "horror_move"],
    test_points: FEAR_POINTS,
    refusals: &[Refusal {
        what: "a parameter misspelt",
        point: 0,
        set: &[("causer", "x")],
        unset: &[],
        field: "causer",
        words: &["did you mean 'cause'"],
    }],
    naive: crate::systems::krygothic::naive::FEAR,
};

/// The `action_points` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const ACTION_POINTS_SCENARIO: Scenario = Scenario {
    name: "action_points",
    about: "AP for the next round: highest D6 per squad leader + Tactics Rating, losses and triumphs",
    seed_section: "Chapter 3: Getting your AP; Tactic Ratings; Loses table; Triumph table",
    params: ApParams::decls,
    metrics: || AP_METRICS.to_vec(),
    build: build_ap,
    variants: &[],
    test_points: AP_POINTS,
    refusals: &[Refusal {
        what: "a team misspelt",
        point: 0,
        set: &[("team", "ralm")],
        unset: &[],
        field: "team",
        words: &["ralim"],
    }],
    naive: crate::systems::krygothic::naive::ACTION_POINTS,
};

/// The `order_combo` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const ORDER_COMBO_SCENARIO: Scenario = Scenario {
    name: "order_combo",
    about: "an order combo: every unit must pass every test",
    seed_section: "Chapter 3: Order Combos",
    params: ComboParams::decls,
    metrics: || COMBO_METRICS.to_vec(),
    build: build_combo,
    variants: &["seven_plus"],
    test_points: COMBO_POINTS,
    refusals: &[Refusal {
        what: "no units",
        point: 0,
        set: &[("units", "0")],
        unset: &[],
        field: "units",
        words: &["0 is impossible"],
    }],
    naive: crate::systems::krygothic::naive::ORDER_COMBO,
};

/// The `damaged_structure` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const DAMAGED_STRUCTURE_SCENARIO: Scenario = Scenario {
    name: "damaged_structure",
    about: "a unit moving onto a damaged-structure marker",
    seed_section: "Chapter 5: Effects of explosive weapons (Damaged structure)",
    params: || Vec::new(),
    metrics: || STRUCTURE_METRICS.to_vec(),
    build: build_structure,
    variants: &[],
    test_points: &[&[]],
    refusals: &[Refusal {
        what: "a parameter it does not have",
        point: 0,
        set: &[("structure", "3")],
        unset: &[],
        field: "structure",
        words: &["unknown parameter 'structure'"],
    }],
    naive: crate::systems::krygothic::naive::DAMAGED_STRUCTURE,
};

/// The test a unit's Willpower is rolled for: the seed section its
/// parameter quotes.
pub trait WillTest {
    /// The section.
    const SEED: &'static str;
}

/// The pinning test.
#[derive(Clone, Debug)]
pub struct PinningTest;

impl WillTest for PinningTest {
    const SEED: &'static str = PINNING;
}

/// The test against fear.
#[derive(Clone, Debug)]
pub struct FearTest;

impl WillTest for FearTest {
    const SEED: &'static str = FEAR;
}

/// The unit taking a WILL test, a group the pinning and fear scenarios
/// share: its stat line (a unit preset) and its Willpower, quoting the
/// section of test `T`.
#[derive(Clone, Debug)]
pub struct UnitWill<T> {
    /// The unit's Willpower: dice rolled, the highest against the target.
    pub will: i64,
    test: PhantomData<T>,
}

impl<T: WillTest> ParamGroup for UnitWill<T> {
    fn decls_with(prefix: &str) -> Vec<ParamDecl> {
        vec![
            ParamDecl::preset(format!("{prefix}unit"), "unit", prefix)
                .about("the unit's stat line (a unit preset) or custom")
                .seed("Chapter 2: Characteristic Profiles"),
            ParamDecl::int(format!("{prefix}will"), 0, 30)
                .required()
                .about("the unit's Willpower: dice rolled, the highest against the target")
                .seed(T::SEED),
        ]
    }

    fn read_with(p: &Params, prefix: &str) -> Result<Self, ParamError> {
        Ok(UnitWill {
            will: i64::from_param(p, &format!("{prefix}will"))?,
            test: PhantomData,
        })
    }
}

// ---------------------------------------------------------------- pinning

const PINNING: &str = "Chapter 6: Pinning";

crate::param_struct! {
    /// Parameters of the pinning scenario.
    pub struct PinningParams {
        ..unit: UnitWill<PinningTest>,
        shot: String = choice(&["hit", "missed"])
            .default("hit")
            .about("hit: \"Unit was hit by a ranged attack\" (against 5); missed: \"shot at, but not hit\" (against 3)")
            .seed(PINNING),
        shooters: i64 = int(1, 30)
            .default("1")
            .about("units firing: hit, +1 per unit over the first; missed, a test only from 2 units, +1 per unit beyond the second")
            .seed(PINNING),
        squad_leader: bool = flag()
            .about("\"Squad leaders can never be pinned\"")
            .seed(PINNING),
        ap_budget: i64 = int(0, 100)
            .default("12")
            .about("AP the player will spend re-rolling the WILL roll, 1 each (\"all 12 of their AP\")")
            .seed(PINNING),
    }
}

/// Every metric of the pinning scenario.
pub const PINNING_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_test",
        "P(test taken)",
        "1 when the unit must test, else 0",
    ),
    MetricDecl::probability("p_pinned", "P(pinned)", "P(the unit fails the test)"),
    MetricDecl::probability(
        "p_still_pinned",
        "P(still pinned)",
        "P(pinned after spending the whole AP budget on re-rolls)",
    ),
    MetricDecl::mean(
        "mean_ap_spent",
        "mean AP spent re-rolling to unpin",
        "expected AP spent re-rolling until unpinned (at most the budget)",
    ),
    MetricDecl::probability(
        "ap_spent={k}",
        "P({k} AP spent re-rolling)",
        "P(exactly k AP spent re-rolling)",
    ),
];

crate::variant_enum! {
    /// How the target of a hit unit's pinning test counts the units firing
    /// (variant `pinning_hit`).
    pub enum PinningHit = "pinning_hit" {
        /// The rule: "roll against target 5. Increase the target number by 1
        /// for every unit over the first that is also firing (so two units
        /// firing give a target number of 6 instead of 5)".
        Rule = "rule",
        /// Example #1: "shot at by two elite units ... The unit is struck ...
        /// A WILL roll of 4 dice ... is made at target 5": 5 up to the second
        /// unit firing, +1 for each unit after it (as Example #2 counts the
        /// missed test: "base 3 for the second unit firing, +1 for the third").
        Example = "example",
    }
    about: "the pinning test of a hit unit: 'rule' = target 5, +1 for every unit over the first that is also firing (\"two units firing give a target number of 6 instead of 5\"); 'example' = Example #1's two units at target 5, +1 for each unit after the second",
}

crate::variant_enum! {
    /// Pure horror's random 4" move, "only applied to those who have a
    /// willpower attribute of 2 or less" (variant `horror_move`).
    pub enum HorrorMove = "horror_move" {
        /// The unit's WILL attribute as it stands.
        Unhalved = "unhalved",
        /// The WILL halved for the test (WILL 5 or less).
        Halved = "halved",
    }
    about: "pure horror's random 4\" move \"only applied to those who have a willpower attribute of 2 or less\": 'unhalved' = the unit's WILL attribute; 'halved' = the WILL halved for the test (WILL 5 or less)",
}

/// The pinning test's target, or `None` when no test is taken.
pub fn pinning_target(
    hit: bool,
    shooters: i32,
    squad_leader: bool,
    counting: PinningHit,
) -> Option<i32> {
    if squad_leader {
        None
    } else if hit {
        Some(match counting {
            // "Increase the target number by 1 for every unit over the first"
            PinningHit::Rule => 5 + shooters - 1,
            // Example #1: two units firing, target 5
            PinningHit::Example => 5 + (shooters - 2).max(0),
        })
    } else if shooters >= 2 {
        // "base 3 for the second unit firing, +1 for the third ..."
        Some(3 + shooters - 2)
    } else {
        None
    }
}

struct Pinning {
    will: u32,
    target: Option<i32>,
    budget: u32,
    reading: Reading,
    list: MetricList,
    m: [Metric; 4],
    spent: Vec<Metric>,
}

/// (pinned at first, AP spent, still pinned)
type PinOut = (bool, u32, bool);

impl Outcomes for Pinning {
    type Out = PinOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> PinOut {
        let Some(t) = self.target else {
            return (false, 0, false);
        };
        if attribute_check(dice, self.will, t, self.reading) {
            return (false, 0, false);
        }
        for k in 1..=self.budget {
            if attribute_check(dice, self.will, t, self.reading) {
                return (true, k, false);
            }
        }
        (true, self.budget, true)
    }

    fn law(&self) -> Vec<(PinOut, f64)> {
        let Some(t) = self.target else {
            return vec![((false, 0, false), 1.0)];
        };
        let p = p_attribute_check(self.will, t, self.reading);
        let mut out = vec![((false, 0, false), p)];
        let mut fail = 1.0 - p;
        for k in 1..=self.budget {
            out.push(((true, k, false), fail * p));
            fail *= 1.0 - p;
        }
        out.push(((true, self.budget, true), fail));
        out
    }

    fn record(&self, o: &PinOut, sink: &mut impl MetricSink) {
        let [test, pinned, still, mean] = self.m;
        sink.record(test, u64::from(self.target.is_some()));
        sink.record(pinned, u64::from(o.0));
        sink.record(still, u64::from(o.2));
        sink.record(mean, u64::from(o.1));
        sink.record(self.spent[o.1 as usize], 1);
    }
}

/// Builds the pinning model.
pub fn build_pinning(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = PinningParams::read(p)?;
    let reading = seven_plus(v)?;
    let hit = p.shot == "hit";
    // the variant is read only where it counts: a hit unit that can be pinned
    let leader = p.squad_leader;
    let counting = if hit && !leader {
        PinningHit::read(v)?
    } else {
        PinningHit::Rule
    };
    let target = pinning_target(hit, p.shooters as i32, leader, counting);
    let budget = p.ap_budget as u32;
    let mut list = MetricList::new();
    let [a, b, c, d, e] = &PINNING_METRICS;
    let m = [a, b, c, d].map(|x| list.add(x));
    let spent = list.family(e, 0..=budget);
    let will = p.unit.will as u32;
    // a trial is a run of WILL checks stopped by the first pass: k failed
    // checks before it (k = 0: not pinned), or every one of the budget's
    // re-rolls failed too (k = budget + 1: still pinned)
    let (p_pass, cap) = match target {
        Some(t) => (p_check(will, t, reading), budget + 1),
        None => (1.0, 0),
    };
    let outcomes = (0..=cap)
        .map(|k| match k {
            0 => (false, 0, false),
            k if k <= budget => (true, k, false),
            _ => (true, budget, true),
        })
        .collect();
    let rule = Pinning {
        will,
        target,
        budget,
        reading,
        list,
        m,
        spent,
    };
    Ok(Box::new(CheckRuns::new(rule, p_pass, cap, outcomes)))
}

/// Conformance points.
pub const PINNING_POINTS: &[&[(&str, &str)]] = &[
    &[("will", "4"), ("shooters", "2")],
    &[
        ("unit", "average_joe"),
        ("shot", "missed"),
        ("shooters", "4"),
    ],
    &[("will", "2"), ("shooters", "3"), ("ap_budget", "5")],
    &[("will", "2"), ("squad_leader", "true")],
];

// ------------------------------------------------------------------- fear

const FEAR: &str = "Chapter 6: Fear";

crate::param_struct! {
    /// Parameters of the fear scenario.
    pub struct FearParams {
        ..unit: UnitWill<FearTest>,
        cause: String = choice(&["fear", "pure_horror"])
            .default("fear")
            .about("fear: WILL against 6; pure horror: WILL halved (rounded down) against 6, and a unit of WILL 2 or less (variant horror_move: of halved WILL 2 or less) moves 4\" at random on a 6")
            .seed("Chapter 6: Fear; Pure horror"),
    }
}

/// Every metric of the fear scenario.
pub const FEAR_METRICS: [MetricDecl; 2] = [
    MetricDecl::probability(
        "p_fail",
        "P(test failed)",
        "P(the WILL test against 6 fails: frozen 2\" out when attacking, CC halved for the first attack when attacked)",
    ),
    MetricDecl::probability(
        "p_random_move",
        "P(random 4\" move)",
        "pure horror: P(failed, WILL 2 or less, and a 6 on the D6)",
    ),
];

struct Fear {
    dice: u32,
    moves: bool,
    reading: Reading,
    list: MetricList,
    m: [Metric; 2],
}

impl Outcomes for Fear {
    type Out = (bool, bool);

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> (bool, bool) {
        let fail = !attribute_check(dice, self.dice, 6, self.reading);
        (fail, fail && self.moves && dice.d6() == 6)
    }

    fn law(&self) -> Vec<((bool, bool), f64)> {
        let q = 1.0 - p_attribute_check(self.dice, 6, self.reading);
        let r = if self.moves { 1.0 / 6.0 } else { 0.0 };
        vec![
            ((false, false), 1.0 - q),
            ((true, false), q * (1.0 - r)),
            ((true, true), q * r),
        ]
    }

    fn record(&self, o: &(bool, bool), sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(o.0));
        sink.record(self.m[1], u64::from(o.1));
    }
}

/// Builds the fear model.
pub fn build_fear(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = FearParams::read(p)?;
    let reading = seven_plus(v)?;
    let will = p.unit.will as u32;
    let horror = p.cause == "pure_horror";
    // "(The following effect is only applied to those who have a willpower
    // attribute of 2 or less)": the unit's WILL attribute as it stands
    // (variant horror_move = "halved": the WILL halved for the test)
    let halved = horror && HorrorMove::read(v)? == HorrorMove::Halved;
    let mut list = MetricList::new();
    let m = [list.add(&FEAR_METRICS[0]), list.add(&FEAR_METRICS[1])];
    Ok(Box::new(OutcomeModel::new(Fear {
        dice: if horror { will / 2 } else { will },
        moves: horror && if halved { will / 2 <= 2 } else { will <= 2 },
        reading,
        list,
        m,
    })))
}

/// Conformance points.
pub const FEAR_POINTS: &[&[(&str, &str)]] = &[
    &[("unit", "average_joe")],
    &[("will", "2"), ("cause", "pure_horror")],
    &[("will", "5"), ("cause", "pure_horror")],
];

// ---------------------------------------------------------- action points

const AP: &str = "Chapter 3: Getting your AP";

crate::param_struct! {
    /// Parameters of the action-points scenario.
    pub struct ApParams {
        team: Opt<String> = preset("team", "")
            .about("the team: its Tactics Rating from the table")
            .seed("Tactic Ratings"),
        tactics: i64 = int(0, 100)
            .required()
            .about("the team's Tactics Rating")
            .seed("Tactic Ratings"),
        squad_leaders: i64 = int(0, 20)
            .default("1")
            .about("squad leaders: one D6 each, the highest counts")
            .seed(AP),
        scenario_modifier: i64 = int(-100, 100)
            .default("0")
            .about("subtracted (\"- scenario modifiers\")")
            .seed(AP),
        lost_half_army: bool = flag()
            .about("-5: lost over 50% of the army since the last AP round")
            .seed("Loses table"),
        squad_leader_killed: bool = flag()
            .about("-5 (not added to the 50% loss: \"just count -5AP\")")
            .seed("Loses table"),
        leader_lost_will_roll: bool = flag()
            .about("-2: the squad leader lost a Willpower roll")
            .seed("Loses table"),
        damaged_by_own_side: bool = flag()
            .about("-1: a unit was damaged by its own side")
            .seed("Loses table"),
        lost_no_units: bool = flag()
            .about("+1: no units lost since the last AP round")
            .seed("Triumph table"),
        killed_enemy_leader: bool = flag()
            .about("+2: killed an enemy squad leader")
            .seed("Triumph table"),
        combo_commands: i64 = int(0, 200)
            .default("0")
            .about("commands in completed order combos: +1 AP per 4")
            .seed("Triumph table"),
        interrupted_combo: bool = flag()
            .about("+3: interrupted a command combo")
            .seed("Triumph table"),
        first_blood: bool = flag()
            .about("+2: caused the first wound")
            .seed("Triumph table"),
    }
}

/// Every metric of the action-points scenario.
pub const AP_METRICS: [MetricDecl; 2] = [
    MetricDecl::mean("mean_ap", "mean AP", "expected AP for the round"),
    MetricDecl::probability("ap={k}", "P({k} AP)", "P(exactly k AP)"),
];

struct ApRule {
    leaders: u32,
    base: i64,
    list: MetricList,
    mean: Metric,
    ap: Vec<(i64, Metric)>,
}

impl ApRule {
    fn total(&self, highest: i64) -> i64 {
        (highest + self.base).max(0)
    }
}

impl Outcomes for ApRule {
    type Out = i64;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> i64 {
        let highest = (0..self.leaders).map(|_| dice.d6()).max().unwrap_or(0);
        self.total(i64::from(highest))
    }

    fn law(&self) -> Vec<(i64, f64)> {
        if self.leaders == 0 {
            return vec![(self.total(0), 1.0)];
        }
        let n = self.leaders as i32;
        (1..=6)
            .map(|h| {
                let p = (f64::from(h) / 6.0).powi(n) - (f64::from(h - 1) / 6.0).powi(n);
                (self.total(i64::from(h)), p)
            })
            .collect()
    }

    fn record(&self, o: &i64, sink: &mut impl MetricSink) {
        sink.record(self.mean, *o as u64);
        if let Some((_, m)) = self.ap.iter().find(|(v, _)| v == o) {
            sink.record(*m, 1);
        }
    }
}

impl ApParams {
    /// The AP adjustment of the Loses and Triumph tables.
    pub fn adjustment(&self) -> i64 {
        let mut a = 0;
        if self.lost_half_army || self.squad_leader_killed {
            a -= 5;
        }
        if self.leader_lost_will_roll {
            a -= 2;
        }
        if self.damaged_by_own_side {
            a -= 1;
        }
        if self.lost_no_units {
            a += 1;
        }
        if self.killed_enemy_leader {
            a += 2;
        }
        a += self.combo_commands / 4;
        if self.interrupted_combo {
            a += 3;
        }
        if self.first_blood {
            a += 2;
        }
        a
    }
}

/// Builds the action-points model.
pub fn build_ap(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ApParams::read(p)?;
    let leaders = p.squad_leaders as u32;
    let base = p.tactics - p.scenario_modifier + p.adjustment();
    let mut list = MetricList::new();
    let mean = list.add(&AP_METRICS[0]);
    let lo = if leaders == 0 { 0 } else { 1 };
    let hi = if leaders == 0 { 0 } else { 6 };
    let mut values: Vec<i64> = (lo..=hi).map(|h| (h + base).max(0)).collect();
    values.dedup();
    let ap = values
        .into_iter()
        .map(|v| (v, list.add_k(&AP_METRICS[1], v)))
        .collect();
    Ok(Box::new(OutcomeModel::new(ApRule {
        leaders,
        base,
        list,
        mean,
        ap,
    })))
}

/// Conformance points.
pub const AP_POINTS: &[&[(&str, &str)]] = &[
    &[("team", "ralim"), ("squad_leaders", "2")],
    &[
        ("tactics", "3"),
        ("lost_half_army", "true"),
        ("squad_leader_killed", "true"),
        ("leader_lost_will_roll", "true"),
    ],
    &[
        ("team", "the_hive"),
        ("squad_leaders", "3"),
        ("combo_commands", "9"),
        ("first_blood", "true"),
    ],
];

// ----------------------------------------------------------- order combos

const COMBO: &str = "Chapter 3: Order Combos";

crate::param_struct! {
    /// Parameters of the order-combo scenario.
    pub struct ComboParams {
        units: i64 = int(1, 30)
            .required()
            .about("units in the combo: \"ALL will have to pass their tests\"")
            .seed(COMBO),
        tests: i64 = int(1, 30)
            .default("1")
            .about("tests each unit takes")
            .seed(COMBO),
        attribute: i64 = int(0, 30)
            .required()
            .about("the tested attribute (e.g. Speed): dice rolled, the highest against the target")
            .seed("Chapter 1: Rolling attribute checks"),
        target: i64 = int(-10, 60)
            .required()
            .about("the test's target number")
            .seed("Chapter 1: Target numbers"),
    }
}

/// Every metric of the order-combo scenario.
pub const COMBO_METRICS: [MetricDecl; 2] = [
    MetricDecl::probability(
        "p_completes",
        "P(combo completes)",
        "P(every unit passes every test)",
    ),
    MetricDecl::mean(
        "mean_tests_passed",
        "mean tests passed",
        "expected tests passed before the first failure stops every order",
    ),
];

struct Combo {
    tests: u32,
    dice: u32,
    target: i32,
    reading: Reading,
    list: MetricList,
    m: [Metric; 2],
}

impl Outcomes for Combo {
    type Out = u32;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> u32 {
        for k in 0..self.tests {
            if !attribute_check(dice, self.dice, self.target, self.reading) {
                return k;
            }
        }
        self.tests
    }

    fn law(&self) -> Vec<(u32, f64)> {
        let p = p_attribute_check(self.dice, self.target, self.reading);
        (0..=self.tests)
            .map(|k| {
                let q = if k == self.tests { 1.0 } else { 1.0 - p };
                (k, p.powi(k as i32) * q)
            })
            .collect()
    }

    fn record(&self, o: &u32, sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(*o == self.tests));
        sink.record(self.m[1], u64::from(*o));
    }
}

/// Builds the order-combo model.
pub fn build_combo(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = ComboParams::read(p)?;
    let reading = seven_plus(v)?;
    let mut list = MetricList::new();
    let m = [list.add(&COMBO_METRICS[0]), list.add(&COMBO_METRICS[1])];
    let rule = Combo {
        tests: (p.units * p.tests) as u32,
        dice: p.attribute as u32,
        target: p.target as i32,
        reading,
        list,
        m,
    };
    // a trial is a run of checks stopped by the first fail: the tests
    // passed before it, at most every test
    let p_fail = 1.0 - p_check(rule.dice, rule.target, reading);
    let tests = rule.tests;
    Ok(Box::new(CheckRuns::new(
        rule,
        p_fail,
        tests,
        (0..=tests).collect(),
    )))
}

/// Conformance points.
pub const COMBO_POINTS: &[&[(&str, &str)]] = &[
    &[("units", "3"), ("attribute", "3"), ("target", "4")],
    &[
        ("units", "4"),
        ("tests", "2"),
        ("attribute", "2"),
        ("target", "7"),
    ],
];

// ------------------------------------------------------ damaged structure

/// Every metric of the damaged-structure scenario.
pub const STRUCTURE_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_falls_in",
        "P(floor gives way)",
        "P(4+ on the D6: the unit falls in or, on a second 6, to its death)",
    ),
    MetricDecl::probability(
        "p_collapses",
        "P(section collapses)",
        "P(a 6, then a second 6: the unit falls to its death)",
    ),
    MetricDecl::mean(
        "mean_ap_stuck",
        "mean AP to free",
        "expected AP spent freeing the unit (D6/2 rounded down)",
    ),
    MetricDecl::probability(
        "stuck_ap={k}",
        "P({k} AP to free)",
        "P(exactly k AP to free the unit; 0 when it did not fall in or died)",
    ),
];

/// "On a 4+, the floor gives way, and the unit becomes stuck until D6/2
/// rounded down ... AP's are spent ... If a 6 is rolled to check for the
/// floor, roll the dice again. If a SECOND 6 is rolled, the whole section
/// gives way, and the unit falls to its death. (If a second 6 is not
/// rolled, apply the normal effects above)." Returns (falls in, collapses,
/// AP stuck).
pub fn damaged_structure<R: Roller>(dice: &mut R) -> (bool, bool, u32) {
    let first = dice.d6();
    if first < 4 {
        return (false, false, 0);
    }
    if first == 6 && dice.d6() == 6 {
        return (true, true, 0);
    }
    (true, false, dice.d6() / 2)
}

struct Structure {
    list: MetricList,
    m: [Metric; 3],
    stuck: Vec<Metric>,
}

impl Outcomes for Structure {
    type Out = (bool, bool, u32);

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> (bool, bool, u32) {
        damaged_structure(dice)
    }

    fn law(&self) -> Vec<((bool, bool, u32), f64)> {
        enumerate(1 << 10, damaged_structure).expect("at most 6^3 paths")
    }

    fn record(&self, o: &(bool, bool, u32), sink: &mut impl MetricSink) {
        sink.record(self.m[0], u64::from(o.0));
        sink.record(self.m[1], u64::from(o.1));
        sink.record(self.m[2], u64::from(o.2));
        sink.record(self.stuck[o.2 as usize], 1);
    }
}

/// Builds the damaged-structure model.
pub fn build_structure(_p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let mut list = MetricList::new();
    let [a, b, c, d] = &STRUCTURE_METRICS;
    let m = [a, b, c].map(|x| list.add(x));
    let stuck = list.family(d, 0..=3);
    Ok(Box::new(OutcomeModel::new(Structure { list, m, stuck })))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Example #2: "shot at by 4 units ... Although the enemy misses ...
    /// target 3+2 (base 3 for the second unit firing, +1 for the third
    /// unit firing, +1 for the fourth unit firing), so the target number is
    /// 5." The rule: "two units firing give a target number of 6 instead of
    /// 5". Example #1 ("shot at by two elite units ... struck ... A WILL
    /// roll of 4 dice ... at target 5") conflicts with that rule; the rule,
    /// stated with its own example, is the default, Example #1 the variant
    /// `pinning_hit = "example"` (5 up to the second unit, +1 per unit
    /// after it).
    #[test]
    fn pinning_targets() {
        use PinningHit::{Example, Rule};
        assert_eq!(pinning_target(false, 4, false, Rule), Some(5));
        assert_eq!(pinning_target(true, 2, false, Rule), Some(6));
        assert_eq!(pinning_target(true, 1, false, Rule), Some(5));
        assert_eq!(pinning_target(false, 1, false, Rule), None);
        assert_eq!(pinning_target(true, 3, true, Rule), None);
        assert_eq!(pinning_target(true, 1, false, Example), Some(5));
        assert_eq!(pinning_target(true, 2, false, Example), Some(5));
        assert_eq!(pinning_target(true, 4, false, Example), Some(7));
        assert_eq!(pinning_target(false, 4, false, Example), Some(5));
        assert_eq!(pinning_target(true, 2, true, Example), None);
    }

    #[test]
    fn structure_law() {
        let law = enumerate(1 << 10, damaged_structure).unwrap();
        let p = |f: &dyn Fn(&(bool, bool, u32)) -> bool| -> f64 {
            law.iter().filter(|(o, _)| f(o)).map(|x| x.1).sum()
        };
        assert!((p(&|o| o.0) - 0.5).abs() < 1e-12);
        assert!((p(&|o| o.1) - 1.0 / 36.0).abs() < 1e-12);
        // stuck 3 AP: fell in without dying (1/2 - 1/36), then a 6
        assert!((p(&|o| o.2 == 3) - (0.5 - 1.0 / 36.0) / 6.0).abs() < 1e-12);
    }

    #[test]
    fn the_seed_says_so() {
        use crate::systems::seed_text;
        if !seed_text::available(super::super::SEED) {
            return;
        }
        let text = seed_text::seed(super::super::SEED);
        for quote in [
            "two units firing give a target number of 6 instead of 5",
            "A WILL roll of 4 dice (4 is the units WILL attribut) is made at target 5.",
            "shot at by two elite units from the other team",
            "A WILL roll is made at target 3+2",
            "Note that Squad leaders can never be pinned.",
            "you can spend a single AP to re-roll the WILL roll",
            "On a 4+, the floor gives way",
            "(so a roll of 6 becomes 3, a roll of 5 becomes 2)",
            "If a SECOND 6 is rolled, the whole section gives way",
            "1) You have lost over 50% of your army since the last AP round -5 AP",
            "2) Your squad leader has been killed -5AP (If 50% of army has been lost as well, just count -5AP)",
            "3) Your squad leader lost any Willpower rolls since the last AP round - 2 AP",
            "4) Any of your units were damaged by their own side -1AP",
            "1) You lost no units since the last AP round +1 AP",
            "2) You killed an enemy squad leader +2 AP",
            "3) You have successfully completed a command combo. +1AP per 4 commands",
            "4) You have interrupted a command combo. +3 AP",
            "5) Fist blood! You caused the first wound. +2 AP",
            "AP can never be reduced below 0.",
            "Roll 1D6 per Squad Leader. Highest D6 roll + Tactics Rating - scenario modifiers",
            "a willpower roll must be made against 6",
            "halve the non-horror causing units WILL attribute (rounded down), and roll against a target number of 6",
            "On a 6, the unit moves 4 inches in a random direction",
        ] {
            assert!(text.contains(quote), "seed has '{quote}'");
        }
    }
}

//! The `close_combat` scenario: one attack of a chosen type against a
//! chosen defence, with whether each is the best reply to the other. Its
//! metrics, its rule ([`CloseRule`], an [`Outcomes`] of one [`Exchange`]),
//! its model ([`CloseModel`]: the rule, sampled on the exchange's face
//! tables where they apply), its parameters, its builder and its
//! conformance points.

use super::exchange::{CcOut, Exchange};
use super::moves::{ATTACK_WORDS, ATTACKS, Attack, DEFENCE_WORDS, DEFENCES, Defence};
use super::params::{SituationParams, counter_roll};
use super::situation::{choices, played, unavailable};
use crate::dice::{BatchedRoller, Metric, MetricSink, Roller, Tally};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::krygothic::fast::{EXCHANGE_FACES, ExchangeFaces, record_counts};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamError, ParamGroup, Params, Sampler,
};

/// Every metric of the close-combat scenario.
pub const METRICS: [MetricDecl; 18] = [
    MetricDecl::probability("p_hit", "P(hit)", "P(at least one to-hit die kept)"),
    MetricDecl::mean(
        "mean_dice_through",
        "mean dice through",
        "expected attacking dice left after the defence roll",
    ),
    MetricDecl::probability("p_wound", "P(wound)", "P(at least one wound)"),
    MetricDecl::mean(
        "mean_wounds",
        "mean wounds",
        "expected wound dice passed (doubled on a critical pass), if every extra wound's AP is paid",
    ),
    MetricDecl::mean(
        "mean_ap_for_extra_wounds",
        "mean AP for extra wounds",
        "expected AP to make every wound count: 2 for the second wound die that passes, 3 for the third, ... (a critical pass doubles them free; none with Multiple wounds)",
    ),
    MetricDecl::probability(
        "p_critical_pass",
        "P(critical pass)",
        "P(a score of 18 from sixes: double damage)",
    ),
    MetricDecl::probability(
        "p_critical_fail",
        "P(critical fail)",
        "P(every to-hit die a 1: the damage turns on the attacker's own unit)",
    ),
    MetricDecl::probability(
        "p_fear_failed",
        "P(fear test failed)",
        "P(the defender fails its WILL test against fear or pure horror: CC halved)",
    ),
    MetricDecl::probability(
        "p_breaks_off",
        "P(defender breaks off)",
        "break off: P(no attacking die left)",
    ),
    MetricDecl::probability(
        "p_attacker_weapon_breaks",
        "P(attacker's weapon breaks)",
        "bunt: P(the attack hits and the D6 is a 6)",
    ),
    MetricDecl::probability(
        "p_defender_weapon_breaks",
        "P(defender's weapon breaks)",
        "deflect: P(hits negated and the D6 is a 6)",
    ),
    MetricDecl::mean(
        "mean_knockback",
        "mean knock-back (inches)",
        "shove: expected inches knocked back (wound rolls passed, at most the attacker's Str)",
    ),
    MetricDecl::probability(
        "p_defender_free_attack",
        "P(defender's free attack)",
        "counter attack: P(the defender gets more successes than the attacker's hits)",
    ),
    MetricDecl::probability(
        "p_attacker_free_attack",
        "P(attacker's free attack)",
        "counter attack: P(the defender does not)",
    ),
    MetricDecl::mean(
        "mean_own_wound_saves",
        "mean own wound saves",
        "point blank shot: expected to-hit dice that miss (a wound save each for the attacker)",
    ),
    MetricDecl::mean(
        "mean_tackle_inches",
        "mean tackle move (inches)",
        "tackle: expected inches both combatants move (the attacker's Strength + passed to-hit dice)",
    ),
    MetricDecl::probability(
        "p_knocked_down",
        "P(knocked down)",
        "leg sweep: P(an attacking die gets through), or a lasso: P(a wound): the victim spends 1 AP getting up",
    ),
    MetricDecl::probability("wounds={k}", "P({k} wounds)", "P(exactly k wounds)"),
];

/// The attacker's own wounds after a critical fail.
pub const OWN_WOUNDS: MetricDecl = MetricDecl::mean(
    "mean_own_wounds",
    "mean wounds on the attacker's own unit",
    "critical fail (every to-hit die a 1): the dice the attack could keep (CC, at most Str) roll to wound against the attacker's own Body + save",
);

/// Constant metrics: whether this pair is a best reply.
pub const BEST: [MetricDecl; 2] = [
    MetricDecl::yes_no(
        "is_best_defence",
        "is the best defence (fewest mean wounds)",
        "1 when this defence gives the fewest expected wounds against this attack among the defender's choices",
    ),
    MetricDecl::probability(
        "is_best_attack",
        "best attack (1/0)",
        "1 when this attack gives the most expected wounds against this defence among the attacker's choices",
    ),
];

/// The scenario's metric catalogue.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS
        .iter()
        .chain(std::iter::once(&OWN_WOUNDS))
        .chain(BEST.iter())
        .copied()
        .collect()
}

/// The close-combat rule with its metric handles.
pub struct CloseRule {
    ex: Exchange,
    free_extra_wounds: bool,
    list: MetricList,
    m: Vec<Metric>,
    wounds: Vec<Metric>,
    own: Metric,
    best: [(Metric, bool); 2],
}

impl Outcomes for CloseRule {
    type Out = CcOut;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> CcOut {
        self.ex.roll(dice)
    }

    fn law(&self) -> Vec<(CcOut, f64)> {
        self.ex.law()
    }

    fn record(&self, o: &CcOut, sink: &mut impl MetricSink) {
        let m = &self.m;
        let w = u64::from(o.wounds);
        // "for each dice that passes, the attacker can spend AP to make the
        // extra wounds count ... 2 AP for the second wound, 3 AP for the
        // third": the dice that pass are paid for, a critical pass's
        // doubling comes free
        let passed = if o.critical_pass { w / 2 } else { w };
        let vals = [
            u64::from(o.hits > 0),
            u64::from(o.left),
            u64::from(o.wounds > 0),
            w,
            if passed >= 2 && !self.free_extra_wounds {
                (passed * (passed + 1)) / 2 - 1
            } else {
                0
            },
            u64::from(o.critical_pass),
            u64::from(o.critical_fail),
            u64::from(o.fear_failed),
            u64::from(o.breaks_off),
            u64::from(o.attacker_weapon_breaks),
            u64::from(o.defender_weapon_breaks),
            u64::from(o.knockback),
            u64::from(o.free_attack == 1),
            u64::from(o.free_attack == 2),
            u64::from(o.own_wound_saves),
            u64::from(o.tackle_inches),
            u64::from(o.knocked_down),
        ];
        for (h, v) in m.iter().zip(vals) {
            sink.record(*h, v);
        }
        sink.record(self.wounds[usize::from(o.wounds)], 1);
        sink.record(self.own, u64::from(o.own_wounds));
        for (h, v) in self.best {
            sink.record(h, u64::from(v));
        }
    }
}

crate::param_struct! {
    /// Parameters of the close-combat scenario: both sides, the
    /// situation, the payoff and the attack and defence played.
    pub struct CloseParams {
        ..situation: SituationParams,
        payoff: String = choice(&["mean_wounds", "p_wound"])
            .default("mean_wounds")
            .about("what the attacker maximises and the defender minimises")
            .seed("Step 4: Defender: Choose defense type"),
        attack: String = choice(ATTACK_WORDS)
            .default("weapon")
            .about("the attack type (Step 2)")
            .seed("Step 2: Attacker: Choose an attack"),
        defence: String = choice(DEFENCE_WORDS)
            .default("passive")
            .about("passive, or the active defence type (Steps 1 and 4)")
            .seed("Step 4: Defender: Choose defense type"),
    }
}

/// Builds the close-combat model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = CloseParams::read(p)?;
    let mut fight = p.situation.fight(v)?;
    let attack = ATTACKS
        .iter()
        .find(|x| x.1 == p.attack)
        .map_or(Attack::Weapon, |x| x.0);
    let defence = DEFENCES
        .iter()
        .find(|x| x.1 == p.defence)
        .map_or(Defence::Passive, |x| x.0);
    fight.counter_roll = counter_roll(v, defence == Defence::Counter)?;
    if let Some(why) = unavailable(&fight, attack, Defence::Passive) {
        return Err(ParamError::new(crate::param_name!(CloseParams.attack), why));
    }
    let (attacks, defences) = choices(&fight);
    if !defences.iter().any(|(d, _)| *d == defence) {
        let why = ATTACKS
            .iter()
            .find_map(|(a, _)| unavailable(&fight, *a, defence))
            .unwrap_or("the defender cannot use this defence");
        return Err(ParamError::new(
            crate::param_name!(CloseParams.defence),
            why,
        ));
    }
    let by_p = p.payoff == "p_wound";
    let pay = |a, d| {
        let (m, q) = Exchange {
            fight,
            attack: a,
            defence: played(&fight, a, d),
        }
        .payoff();
        if by_p { q } else { m }
    };
    let here = pay(attack, defence);
    let best_def = defences
        .iter()
        .all(|(d, _)| pay(attack, *d) >= here - 1e-12);
    let best_att = attacks
        .iter()
        .all(|(a, _)| pay(*a, defence) <= here + 1e-12);
    let defence = played(&fight, attack, defence);
    let ex = Exchange {
        fight,
        attack,
        defence,
    };
    let n = fight.numbers(attack, defence, false);
    let max_w = 2 * n.att_str.clamp(0, 60).min(n.att_cc.clamp(0, 60));
    let mut list = MetricList::new();
    let m: Vec<Metric> = METRICS[..17].iter().map(|d| list.add(d)).collect();
    let wounds = list.family(&METRICS[17], 0..=max_w.max(0));
    let own = list.add(&OWN_WOUNDS);
    let best = [
        (list.add(&BEST[0]), best_def),
        (list.add(&BEST[1]), best_att),
    ];
    let rule = CloseRule {
        free_extra_wounds: ex.weapon_effect(|w| w.multiple_wounds),
        ex,
        list,
        m,
        wounds,
        own,
        best,
    };
    Ok(Box::new(CloseModel::new(rule, &ex)))
}

/// The close-combat model: the [`OutcomeModel`] of the rule for its exact
/// law and reference sampler, [`ExchangeFaces`] where they apply.
pub struct CloseModel {
    model: OutcomeModel<CloseRule>,
    faces: Option<ExchangeFaces>,
}

impl CloseModel {
    /// The model of `rule` on `ex`'s face tables where they apply.
    pub fn new(rule: CloseRule, ex: &Exchange) -> Self {
        CloseModel {
            model: OutcomeModel::new(rule),
            faces: ExchangeFaces::new(ex),
        }
    }
}

impl Model for CloseModel {
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
        let counts = f.count(roller, trials);
        record_counts(self.model.rule(), f.ends(), &counts, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        if self.faces.is_some() {
            EXCHANGE_FACES
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

/// Conformance points.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[
        ("attacker", "average_joe"),
        ("defender", "average_joe"),
        ("attack", "kick"),
        ("defence", "dodge"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_weapon", "axe"),
        ("defender", "average_joe"),
        ("defender_save", "4"),
        ("defender_weapon", "knife"),
        ("attack", "weapon"),
        ("defence", "parry"),
        ("charged", "true"),
        ("attacker_causes", "fear"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("defender_ranged_weapon", "true"),
        ("attack", "bunt"),
        ("defence", "deflect"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("defender", "average_joe"),
        ("defender_cc", "3"),
        ("attack", "shove"),
        ("defence", "counter_attack"),
        ("attacker_causes", "pure_horror"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_weapon", "custom"),
        ("attacker_weapon_cc", "0"),
        ("attacker_weapon_str", "1"),
        ("attacker_weapon_multiple_wounds", "true"),
        ("attacker_weapon_lasso", "true"),
        ("attacker_weapon_wrap", "true"),
        ("defender", "average_joe"),
        ("defender_weapon", "knife"),
        ("attack", "weapon"),
        ("defence", "dodge"),
    ],
    &[
        ("attacker", "average_joe"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("attack", "point_blank_shot"),
        ("defence", "break_off"),
        ("defender_charged", "true"),
    ],
];

//! Skill checks against the difficulty ladder (with Extras), contests
//! (dodging an area attack) and turn order.

use super::counted::CountedTotals;
use super::rules::{DeferredDifficulty, RollParams, SkillRoll, asset_list, modifier};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{MetricDecl, MetricList, Model, Opt, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `check` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const CHECK_SCENARIO: Scenario = Scenario {
    name: "check",
    about: "a Skill check against a Difficulty Level, with its Extras; or a contest",
    seed_section: "Difficulty; Difficulty Modifier; Stacking Modifiers; Dodging",
    params: CheckParams::decls,
    metrics: || CHECK_METRICS.to_vec(),
    build: build_check,
    variants: &[],
    test_points: &[
        &[("skill", "2")],
        &[
            ("skill", "4"),
            ("difficulty", "Hard"),
            ("assets", "rope, rope, climbing gear"),
            ("unfavourable", "1"),
        ],
        &[
            ("skill", "1"),
            ("roll", "1d20"),
            ("extras_step", "3"),
            ("difficulty", "8"),
        ],
        &[("skill", "3"), ("opponent_skill", "4")],
    ],
    refusals: &[
        Refusal {
            what: "a Difficulty Level name with a typo",
            point: 0,
            set: &[("difficulty", "hrad")],
            unset: &[],
            field: "difficulty",
            words: &["did you mean 'hard'"],
        },
        Refusal {
            what: "a Difficulty Level past the ladder",
            point: 0,
            set: &[("difficulty", "41")],
            unset: &[],
            field: "difficulty",
            words: &["0 to 40"],
        },
        Refusal {
            what: "assets as a count, not types",
            point: 0,
            set: &[("assets", "2")],
            unset: &[],
            field: "assets",
            words: &["name the asset types"],
        },
        Refusal {
            what: "a roll that cannot be read",
            point: 0,
            set: &[("roll", "2d6+")],
            unset: &[],
            field: "roll",
            words: &["cannot be read"],
        },
        Refusal {
            what: "a roll that is a comparison",
            point: 0,
            set: &[("roll", "2d6>=7")],
            unset: &[],
            field: "roll",
            words: &["comparison"],
        },
        Refusal {
            what: "an Extras step of 0",
            point: 0,
            set: &[("extras_step", "0")],
            unset: &[],
            field: "extras_step",
            words: &["0 is impossible"],
        },
    ],
    naive: crate::systems::crisis::naive::CHECK,
};

/// The `turn_order` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const TURN_ORDER_SCENARIO: Scenario = Scenario {
    name: "turn_order",
    about: "initiative: Mind + circumstance, a PC against an NPC, ties to the PC; a surprise round first",
    seed_section: "Turns; Turn Order; Surprise Round",
    params: TurnOrderParams::decls,
    metrics: || TURN_ORDER_METRICS.to_vec(),
    build: build_turn_order,
    variants: &[],
    test_points: &[
        &[("pc_mind", "2"), ("npc_mind", "3")],
        &[("pc_mind", "1"), ("npc_mind", "2"), ("surprise", "pc")],
    ],
    refusals: &[
        Refusal {
            what: "a Mind past the attribute scale",
            point: 0,
            set: &[("pc_mind", "31")],
            unset: &[],
            field: "pc_mind",
            words: &["31 is impossible: must be from -10 to 30"],
        },
        Refusal {
            what: "a surprise by nobody",
            point: 0,
            set: &[("surprise", "gm")],
            unset: &[],
            field: "surprise",
            words: &["'gm'"],
        },
    ],
    naive: crate::systems::crisis::naive::TURN_ORDER,
};

const DIFFICULTY: &str = "Difficulty; Difficulty Modifier; Stacking Modifiers";
const DODGING: &str = "Dodging";
const TURN_ORDER: &str = "Turn Order";
const SURPRISE_ROUND: &str = "Surprise Round";

/// Who gains the surprise round.
const SURPRISE: &[&str] = &["none", "pc", "npc"];

/// Most Extras shown one by one; more are counted in the last row.
const EXTRAS_SHOWN: u32 = 6;

crate::param_struct! {
    /// Parameters of the check scenario.
    pub struct CheckParams {
        ..roll: RollParams,
        skill: i64 = int(-10, 30)
            .required()
            .about("the skill (or attribute) added to the roll")
            .seed(DIFFICULTY),
        difficulty: DeferredDifficulty = declared().default("4"),
        assets: Opt<String> = text("climbing gear, rope")
            .about("assets at hand, comma-separated by type: +1 per distinct type (same-type assets do not stack)")
            .seed(DIFFICULTY),
        unfavourable: i64 = int(0, 20)
            .default("0")
            .about("unfavourable circumstances, -1 each")
            .seed(DIFFICULTY),
        circumstance: i64 = int(-20, 20)
            .default("0")
            .about("any other circumstance modifier")
            .seed(DIFFICULTY),
        opponent_skill: Opt<i64> = int(-10, 30)
            .about("a contest: the opponent rolls the same dice plus this skill (a dodge: the attacker's weapon skill); the check must beat the opponent's total")
            .seed(DODGING),
        opponent_circumstance: i64 = int(-20, 20)
            .default("0")
            .about("the opponent's modifiers in a contest")
            .seed(DODGING),
    }
}

/// Every metric of the check scenario.
pub const CHECK_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_success",
        "P(success)",
        "P(the total reaches the difficulty)",
    ),
    MetricDecl::mean(
        "mean_extras",
        "mean Extras",
        "expected Extras (0 on a failure)",
    ),
    MetricDecl::probability(
        "extras={k}",
        "P(exactly {k} Extras)",
        "P(exactly k Extras; a failure counts 0)",
    ),
    MetricDecl::probability(
        "extras>{k}",
        "P(more than {k} Extras)",
        "P(more Extras than the last row shown)",
    ),
    MetricDecl::probability(
        "p_win_contest",
        "P(wins the contest)",
        "P(the total beats the opponent's total; ties go to the opponent)",
    ),
];

/// A check, or a contest when an opponent rolls too.
struct Check {
    roll: SkillRoll,
    bonus: i64,
    difficulty: i64,
    opponent: Option<i64>,
    list: MetricList,
    success: Metric,
    mean_extras: Metric,
    extras: Vec<Metric>,
    win: Option<Metric>,
}

/// (total, opponent's total)
type Totals = (i64, i64);

impl Mechanic for Check {
    type State = Totals;

    fn start(&self) -> Totals {
        (0, 0)
    }

    fn steps(&self) -> usize {
        1
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut Totals) {
        s.0 = self.roll.dice(dice) + self.bonus;
        if let Some(opponent) = self.opponent {
            s.1 = self.roll.dice(dice) + opponent;
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, &(total, opponent): &Totals, sink: &mut impl MetricSink) {
        let extras = self.roll.extras(total, self.difficulty);
        sink.record(self.success, u64::from(extras.is_some()));
        let n = extras.unwrap_or(0);
        sink.record(self.mean_extras, u64::from(n));
        sink.record(self.extras[n.min(EXTRAS_SHOWN + 1) as usize], 1);
        if let Some(win) = self.win {
            sink.record(win, u64::from(total > opponent));
        }
    }
}

/// Builds the check scenario.
pub fn build_check(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = CheckParams::read(p)?;
    let roll = p.roll.skill_roll()?;
    let bonus = p.skill
        + modifier(
            &asset_list(p.assets.name(), p.assets.value.clone())?,
            p.unfavourable,
        )
        + p.circumstance;
    let opponent = p.opponent_skill.value.map(|s| s + p.opponent_circumstance);
    let mut list = MetricList::new();
    let [success, mean, exactly, beyond, win] = &CHECK_METRICS;
    let success = list.add(success);
    let mean_extras = list.add(mean);
    let mut extras = list.family(exactly, 0..=EXTRAS_SHOWN);
    extras.push(list.add_k(beyond, EXTRAS_SHOWN));
    let win = opponent.map(|_| list.add(win));
    Ok(Box::new(CountedTotals {
        roll: roll.clone(),
        rolls: if opponent.is_some() { 2 } else { 1 },
        bonus: (bonus, opponent.unwrap_or(0)),
        model: StepModel::new(Check {
            roll,
            bonus,
            difficulty: p.difficulty.clone()?.0,
            opponent,
            list,
            success,
            mean_extras,
            extras,
            win,
        }),
    }))
}

crate::param_struct! {
    /// Parameters of the turn-order scenario.
    pub struct TurnOrderParams {
        ..roll: RollParams,
        pc_mind: i64 = int(-10, 30)
            .required()
            .about("the player character's Mind")
            .seed(TURN_ORDER),
        pc_circumstance: i64 = int(-20, 20)
            .default("0")
            .about("the player character's circumstance modifier")
            .seed(TURN_ORDER),
        npc_mind: i64 = int(-10, 30)
            .required()
            .about("the NPC's (or NPC group's) Mind")
            .seed(TURN_ORDER),
        npc_circumstance: i64 = int(-20, 20)
            .default("0")
            .about("the NPC's circumstance modifier")
            .seed(TURN_ORDER),
        surprise: String = choice(SURPRISE)
            .default("none")
            .about("who attacks an enemy that has not noticed them and is not combat ready: that side gains an additional turn before combat starts")
            .seed(SURPRISE_ROUND),
    }
}

/// Every metric of the turn-order scenario.
pub const TURN_ORDER_METRICS: [MetricDecl; 3] = [
    MetricDecl::probability(
        "p_pc_first",
        "P(player character acts first)",
        "P(the PC takes the first turn: its surprise round, or an initiative at least the NPC's, 'If a player character and an NPC tie, the player character acts first')",
    ),
    MetricDecl::probability(
        "p_tie",
        "P(initiative tie)",
        "P(both roll the same initiative, won by the PC)",
    ),
    MetricDecl::probability(
        "pc_turns_first={k}",
        "P(PC has exactly {k} turns before the NPC)",
        "P(the PC has exactly k turns before the NPC's first turn: a surprise round, then the first round in initiative order)",
    ),
];

/// Turns the PC takes before the NPC's first: the surprise round ("you gain
/// an additional turn before actual combat starts"), then the first round
/// in initiative order.
fn pc_turns_first(surprise: &str, pc_wins_initiative: bool) -> usize {
    match surprise {
        "pc" => 1 + usize::from(pc_wins_initiative),
        "npc" => 0,
        _ => usize::from(pc_wins_initiative),
    }
}

struct TurnOrder {
    roll: SkillRoll,
    pc: i64,
    npc: i64,
    surprise: String,
    list: MetricList,
    first: Metric,
    tie: Metric,
    turns_first: Vec<Metric>,
}

impl Mechanic for TurnOrder {
    type State = (i64, i64);

    fn start(&self) -> (i64, i64) {
        (0, 0)
    }

    fn steps(&self) -> usize {
        1
    }

    fn step<R: Roller>(&self, _i: usize, dice: &mut R, s: &mut (i64, i64)) {
        // "Mind ± Circumstance"
        *s = (
            self.roll.dice(dice) + self.pc,
            self.roll.dice(dice) + self.npc,
        );
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, &(pc, npc): &(i64, i64), sink: &mut impl MetricSink) {
        let turns = pc_turns_first(&self.surprise, pc >= npc);
        let first = match self.surprise.as_str() {
            "pc" => true,
            "npc" => false,
            _ => pc >= npc,
        };
        sink.record(self.first, u64::from(first));
        sink.record(self.tie, u64::from(pc == npc));
        sink.record(self.turns_first[turns], 1);
    }
}

/// Builds the turn-order scenario.
pub fn build_turn_order(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = TurnOrderParams::read(p)?;
    let mut list = MetricList::new();
    let [first, tie, turns] = &TURN_ORDER_METRICS;
    let first = list.add(first);
    let tie = list.add(tie);
    let turns_first = list.family(turns, 0..=2);
    let roll = p.roll.skill_roll()?;
    let pc = p.pc_mind + p.pc_circumstance;
    let npc = p.npc_mind + p.npc_circumstance;
    Ok(Box::new(CountedTotals {
        roll: roll.clone(),
        rolls: 2,
        bonus: (pc, npc),
        model: StepModel::new(TurnOrder {
            roll,
            pc,
            npc,
            surprise: p.surprise,
            list,
            first,
            tie,
            turns_first,
        }),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::testing::exact as value;
    use crate::systems::{ParamValue, Params};

    fn model(scenario: &str, pairs: &[(&str, &str)]) -> Box<dyn Model> {
        crate::systems::testing::model(&super::super::RULES, scenario, pairs)
    }

    #[test]
    fn check_on_two_d6_counts_extras_by_fours() {
        // skill 2, DL 4: 2d6 + 2 >= 4 always; Extras = (2d6 - 2) / 4
        let m = model("check", &[("skill", "2")]);
        assert!((value(&*m, "p_success") - 1.0).abs() < 1e-12);
        // 2 Extras: 2d6 + 2 - 4 in 8..=11 -> 2d6 in 10..=12 = 6/36
        assert!((value(&*m, "extras=2") - 6.0 / 36.0).abs() < 1e-12);
        // assets of one type count once: skill 0 + 1 asset, DL 8 -> 2d6 >= 7
        let m = model(
            "check",
            &[
                ("skill", "0"),
                ("difficulty", "8"),
                ("assets", "rope, rope"),
            ],
        );
        assert!((value(&*m, "p_success") - 21.0 / 36.0).abs() < 1e-12);
    }

    #[test]
    fn difficulty_by_name_is_the_ladder_level() {
        let by_number = model("check", &[("skill", "5"), ("difficulty", "12")]);
        let by_name = model("check", &[("skill", "5"), ("difficulty", "Hard")]);
        assert_eq!(by_number.exact(), by_name.exact());
        // 2d6 + 5 >= 12: 2d6 >= 7
        assert!((value(&*by_name, "p_success") - 21.0 / 36.0).abs() < 1e-12);
        let mut p = Params::new();
        p.set("skill", ParamValue::Int(5));
        p.set("difficulty", ParamValue::from_text("very hrad"));
        let e = crate::systems::crisis::RULES
            .build("check", &p, &Params::new())
            .err()
            .unwrap();
        assert_eq!(e.field, "difficulty");
        assert!(e.message.contains("did you mean 'very hard'"), "{e}");
    }

    #[test]
    fn a_surprise_round_comes_before_initiative() {
        // equal Mind: the PC wins initiative with P(tie) + (1 - P(tie)) / 2
        let p_tie = 146.0 / 1296.0;
        let wins = (1.0 + p_tie) / 2.0;
        let m = model(
            "turn_order",
            &[("pc_mind", "3"), ("npc_mind", "3"), ("surprise", "pc")],
        );
        assert!((value(&*m, "p_pc_first") - 1.0).abs() < 1e-12);
        assert!((value(&*m, "pc_turns_first=2") - wins).abs() < 1e-12);
        assert!((value(&*m, "pc_turns_first=1") - (1.0 - wins)).abs() < 1e-12);
        let m = model(
            "turn_order",
            &[("pc_mind", "3"), ("npc_mind", "3"), ("surprise", "npc")],
        );
        assert_eq!(value(&*m, "p_pc_first"), 0.0);
        assert!((value(&*m, "pc_turns_first=0") - 1.0).abs() < 1e-12);
        let m = model("turn_order", &[("pc_mind", "3"), ("npc_mind", "3")]);
        assert!((value(&*m, "pc_turns_first=1") - wins).abs() < 1e-12);
        assert_eq!(value(&*m, "pc_turns_first=2"), 0.0);
    }

    #[test]
    fn the_counted_sampler_tallies_what_trial_by_trial_sampling_does() {
        // the counted path, which scenarios whose dice do not fit a face
        // table take (the face table itself is held to the exact values
        // and the reference sampler by the conformance suite)
        crate::systems::crisis::counted::COUNTED_ONLY.with(|c| c.set(true));
        use crate::dice::{BatchedRoller, Metric, MetricSink, Tally};
        for (scenario, pairs) in [
            ("check", &[("skill", "2")][..]),
            ("check", &[("skill", "1"), ("opponent_skill", "3")][..]),
            ("check", &[("skill", "1"), ("roll", "3d6+1d4")][..]),
            ("turn_order", &[("pc_mind", "2"), ("npc_mind", "3")][..]),
        ] {
            let m = model(scenario, pairs);
            let n = m.metrics().len();
            let mut counted = Tally::new(n);
            m.run_chunk(&mut BatchedRoller::new(4, &[2]), 5_000, &mut counted);
            let mut one_by_one = Tally::new(n);
            let mut roller = BatchedRoller::new(4, &[2]);
            for _ in 0..5_000 {
                let mut values = vec![0; n];
                m.sample_one(&mut roller, &mut values);
                for (i, v) in values.into_iter().enumerate() {
                    one_by_one.record(Metric::at(i), v);
                }
                one_by_one.finish_trial();
            }
            assert_eq!(counted, one_by_one, "{scenario} {pairs:?}");
        }
    }

    #[test]
    fn contest_ties_go_to_the_opponent_and_turn_order_ties_to_the_pc() {
        let m = model("check", &[("skill", "3"), ("opponent_skill", "3")]);
        // P(two 2d6 totals tie) = sum of squared 2d6 probabilities = 146 / 1296
        let p_tie = (1..=11)
            .map(|t: i32| (6 - (t - 6).abs()).pow(2))
            .sum::<i32>() as f64
            / 1296.0;
        assert!((value(&*m, "p_win_contest") - (1.0 - p_tie) / 2.0).abs() < 1e-12);
        let m = model("turn_order", &[("pc_mind", "3"), ("npc_mind", "3")]);
        assert!((value(&*m, "p_pc_first") - (1.0 + p_tie) / 2.0).abs() < 1e-12);
        assert!((value(&*m, "p_tie") - p_tie).abs() < 1e-12);
    }
}

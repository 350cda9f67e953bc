//! BOARDING ACTIONS, fought to the end: a draw grapples the ships and the
//! fight repeats every end phase until one side is at 0 damage.
//!
//! One round is written once as sub-steps on a [`Board`] state. The sampler
//! loops rounds until the action is over. The exact evaluator treats the
//! grapple as an absorbing Markov chain: damage never goes back up, so the
//! only cycles are draws (a state returning to itself), and
//! [`RepeatModel`] solves it by elimination in order of decreasing damage.
//!
//! The `boarding` scenario lives here too, after the rule: its parameters
//! (up to four boarding ships and the boarded one, each a preset or its
//! stats, their races and the modifiers' conditions) and its builder. It
//! is the one BFG scenario whose rule already had a module of its name,
//! and the two together stay a readable size; the other scenarios, whose
//! rules share `mechanics.rs`, each have a module named after them.

use super::ships::{CriticalFlags, ShipParams, ShipRole, Who};
use super::tables::{Critical, boarding_crit_scores, boarding_value_modifier, critical_for};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated, round_metrics};
use crate::systems::{MetricDecl, MetricList};
use crate::systems::{Model, ParamError, ParamGroup, Params, Refusal, Scenario};

/// Most ships boarding at once.
pub const MAX_ATTACKERS: usize = 4;
/// End phases counted one by one in the metrics; longer fights are pooled.
pub const ROUNDS_SHOWN: usize = 6;

/// One side's fixed modifiers and nature.
#[derive(Clone, Debug, PartialEq)]
pub struct Side {
    /// Starting damage of each ship (for crippled: lost half or more).
    pub starting: Vec<u32>,
    /// Damage left of each ship when the action starts.
    pub remaining: Vec<u32>,
    /// Remaining turrets (defender only): "The ship being boarded also adds
    /// its number of remaining turrets."
    pub turrets: u32,
    /// Fixed modifiers: enemy Blast markers +1, enemy on special orders +1,
    /// Orks or Chaos +1, Space Marines +2.
    pub fixed_modifier: i32,
    /// Escorts: "when escorts are boarding or being boarded a successful
    /// critical hit will destroy them".
    pub escorts: bool,
    /// Critical results these ships can suffer (others become the next
    /// highest).
    pub applies: [bool; 9],
}

/// The boarding action.
#[derive(Clone, Debug)]
pub struct Boarding {
    /// The boarding ships (their boarding values add up).
    pub attackers: Side,
    /// The ship being boarded.
    pub defender: Side,
}

/// Everything the action has done so far.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Board {
    att: [u8; MAX_ATTACKERS],
    def: u8,
    grappled: bool,
    over: bool,
    /// First round from the attacker's side: 1 win, 2 draw, 3 lose.
    first: u8,
    att_crit: u8,
    def_crit: bool,
    /// Round one's criticals (bit per boarder, bit 4 the defender) and the
    /// damage its loser took, fixed once round one is over.
    first_crits: u8,
    first_loser_damage: u8,
    round_one_done: bool,
    def_hulk: bool,
    def_catastrophic: bool,
    // pending within a round
    winner_attacker: bool,
    difference: u8,
    pending_crits: u8,
}

/// Hashed as one 128-bit number packing every field (so equal boards hash
/// alike): the exact evaluator and the round laws hash a board for every
/// dice path they merge, and a field-by-field hash was a quarter of a run.
impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        let flags = u8::from(self.grappled)
            | u8::from(self.over) << 1
            | u8::from(self.def_crit) << 2
            | u8::from(self.round_one_done) << 3
            | u8::from(self.def_hulk) << 4
            | u8::from(self.def_catastrophic) << 5
            | u8::from(self.winner_attacker) << 6;
        const _: () = assert!(MAX_ATTACKERS + 8 <= 16, "a board packs into 16 bytes");
        let mut bytes = [0u8; 16];
        bytes[..MAX_ATTACKERS].copy_from_slice(&self.att);
        bytes[MAX_ATTACKERS..MAX_ATTACKERS + 8].copy_from_slice(&[
            self.def,
            self.first,
            self.att_crit,
            self.first_crits,
            self.first_loser_damage,
            self.difference,
            self.pending_crits,
            flags,
        ]);
        state.write_u128(u128::from_le_bytes(bytes));
    }
}

impl Boarding {
    fn initial(&self) -> Board {
        let mut att = [0u8; MAX_ATTACKERS];
        for (slot, &r) in att.iter_mut().zip(&self.attackers.remaining) {
            *slot = r.min(255) as u8;
        }
        Board {
            att,
            def: self.defender.remaining[0].min(255) as u8,
            grappled: false,
            over: false,
            first: 0,
            att_crit: 0,
            def_crit: false,
            first_crits: 0,
            first_loser_damage: 0,
            round_one_done: false,
            def_hulk: false,
            def_catastrophic: false,
            winner_attacker: false,
            difference: 0,
            pending_crits: 0,
        }
    }

    fn crippled(starting: u32, remaining: u8) -> bool {
        2 * (starting.saturating_sub(u32::from(remaining))) >= starting
    }

    /// Boarding Modifiers for both sides in state `s`.
    fn modifiers(&self, s: &Board) -> (i32, i32) {
        let att_value: u32 = s.att.iter().map(|&a| u32::from(a)).sum();
        let def_value = u32::from(s.def) + self.defender.turrets;
        // "Enemy ship is crippled +2": against several boarders, all crippled
        let att_crippled = self
            .attackers
            .starting
            .iter()
            .zip(&s.att)
            .filter(|(_, r)| **r > 0)
            .all(|(&st, &r)| Self::crippled(st, r));
        let def_crippled = Self::crippled(self.defender.starting[0], s.def);
        let att = self.attackers.fixed_modifier
            + if def_crippled { 2 } else { 0 }
            + boarding_value_modifier(att_value, def_value);
        let def = self.defender.fixed_modifier
            + if att_crippled { 2 } else { 0 }
            + boarding_value_modifier(def_value, att_value);
        (att, def)
    }

    /// Sub-step 1: both sides roll D6 + modifiers.
    fn roll_scores(&self, dice: &mut impl Roller, s: &mut Board) {
        if s.over {
            return;
        }
        let (ma, md) = self.modifiers(s);
        let a = dice.d6() as i32 + ma;
        let d = dice.d6() as i32 + md;
        if s.first == 0 {
            s.first = match a.cmp(&d) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Equal => 2,
                std::cmp::Ordering::Less => 3,
            };
        }
        if a == d {
            // "the ships grapple together and continue fighting in each
            // subsequent end phase"
            s.grappled = true;
            s.difference = 0;
            return;
        }
        s.winner_attacker = a > d;
        s.difference = (a - d).unsigned_abs().min(255) as u8;
        // "The losing ship suffers 1 point of damage for each point it lost
        // the combat by."
        if s.winner_attacker {
            let before = s.def;
            s.def = s.def.saturating_sub(s.difference);
            if !s.round_one_done {
                s.first_loser_damage = before - s.def;
            }
            if s.def == 0 {
                s.def_hulk = true;
            }
        } else {
            if !s.round_one_done {
                let left: u32 = s.att.iter().map(|&a| u32::from(a)).sum();
                s.first_loser_damage = left.min(u32::from(s.difference)) as u8;
            }
            // damage spread by the attacker: each point to the boarder with
            // the most damage left (reading: he keeps his ships alive)
            for _ in 0..s.difference {
                if let Some(i) = (0..MAX_ATTACKERS)
                    .filter(|&i| s.att[i] > 0)
                    .max_by_key(|&i| (s.att[i], usize::MAX - i))
                {
                    s.att[i] -= 1;
                }
            }
        }
    }

    /// Sub-step 2: critical hit checks, "the chance of critical damage being
    /// caused applies to each and every ship attempting to board". Sets one
    /// pending bit per ship that suffers a critical (bit 4: the defender).
    fn roll_crit_checks(&self, dice: &mut impl Roller, s: &mut Board) {
        if s.over || s.difference == 0 {
            return;
        }
        // The first number is what the loser suffers on, the second the
        // winner (the seed's Hyperion/Plagueclaw example).
        let (loser, winner) = boarding_crit_scores(u32::from(s.difference));
        let (att_score, def_score) = if s.winner_attacker {
            (winner, loser)
        } else {
            (loser, winner)
        };
        let check = |dice: &mut dyn FnMut() -> u32, score: Option<u32>| match score {
            None => false,
            Some(1) => true,
            Some(n) => dice() >= n,
        };
        let mut d6 = || dice.d6();
        let mut pending = 0u8;
        for i in 0..MAX_ATTACKERS {
            if s.att[i] > 0 && check(&mut d6, att_score) {
                pending |= 1 << i;
            }
        }
        if s.def > 0 && check(&mut d6, def_score) {
            pending |= 1 << MAX_ATTACKERS;
        }
        s.pending_crits = pending;
    }

    /// Sub-step 3: each pending critical rolls on the Critical Hits table
    /// (2D6) and adds its extra damage; escorts are destroyed outright.
    fn resolve_crits(&self, dice: &mut impl Roller, s: &mut Board) {
        if s.over {
            return;
        }
        for bit in 0..=MAX_ATTACKERS {
            if s.pending_crits & (1 << bit) == 0 {
                continue;
            }
            let defender = bit == MAX_ATTACKERS;
            let side = if defender {
                &self.defender
            } else {
                &self.attackers
            };
            let crit =
                critical_for(dice.sum(2, 6)).applicable(|c: Critical| side.applies[c.index()]);
            let extra = if side.escorts {
                255
            } else {
                crit.extra_damage(dice).min(255) as u8
            };
            if defender {
                s.def_crit = true;
                let before = s.def;
                s.def = s.def.saturating_sub(extra);
                if before > 0 && s.def == 0 {
                    s.def_catastrophic = true;
                }
            } else {
                s.att_crit |= 1 << bit;
                s.att[bit] = s.att[bit].saturating_sub(extra);
            }
        }
        if !s.round_one_done {
            s.first_crits = s.pending_crits;
        }
        s.round_one_done = true;
        s.pending_crits = 0;
        // The action ends after a decided first round, or once a grappled
        // fight has reduced one side to 0.
        let attackers_left = s.att.iter().any(|&a| a > 0);
        s.over = s.def == 0 || !attackers_left || (!s.grappled && s.difference > 0);
        s.difference = 0;
    }
}

/// The action's own metrics (end-phase counts are added by
/// [`RepeatModel`]).
pub const BOARDING_METRICS: [MetricDecl; 18] = [
    MetricDecl::probability(
        "p_win",
        "P(boarders win round 1)",
        "P(the boarders win the first round)",
    ),
    MetricDecl::probability(
        "p_draw",
        "P(round 1 drawn: grapple)",
        "P(the first round is a draw: the ships grapple)",
    ),
    MetricDecl::probability(
        "p_lose",
        "P(boarders lose round 1)",
        "P(the boarders lose the first round)",
    ),
    MetricDecl::probability(
        "p_hulk",
        "P(boarded ship a hulk)",
        "P(the boarded ship is reduced to 0 by boarding: a drifting hulk)",
    ),
    MetricDecl::probability(
        "p_defender_catastrophic",
        "P(boarded ship lost to a critical)",
        "P(the boarded ship is reduced to 0 by a critical hit)",
    ),
    MetricDecl::probability(
        "p_boarders_destroyed",
        "P(boarders destroyed)",
        "P(every boarding ship is reduced to 0)",
    ),
    MetricDecl::mean(
        "mean_damage_to_defender",
        "mean damage to the boarded ship",
        "expected damage to the boarded ship, to the end",
    ),
    MetricDecl::mean(
        "mean_damage_to_boarders",
        "mean damage to the boarders",
        "expected damage to the boarding ships, to the end",
    ),
    MetricDecl::probability(
        "p_defender_critical",
        "P(boarded ship suffers a critical)",
        "P(the boarded ship suffers a critical hit), to the end",
    ),
    MetricDecl::probability(
        "p_boarder{k}_critical",
        "P(boarder {k} suffers a critical)",
        "P(boarding ship k suffers a critical hit), to the end",
    ),
    MetricDecl::probability(
        "defender_damage={k}",
        "P({k} damage to the boarded ship)",
        "P(exactly k damage to the boarded ship), to the end",
    ),
    MetricDecl::probability(
        "p_defender_critical_first_round",
        "P(boarded ship suffers a critical in round 1)",
        "P(the boarded ship suffers a critical hit in the first round)",
    ),
    MetricDecl::probability(
        "p_boarder{k}_critical_first_round",
        "P(boarder {k} suffers a critical in round 1)",
        "P(boarding ship k suffers a critical hit in the first round)",
    ),
    MetricDecl::probability(
        "first_round_loser_damage={k}",
        "P(round 1 loser takes {k} damage)",
        "P(the loser of the first round takes exactly k damage; 0 on a draw)",
    ),
    MetricDecl::mean(
        "mean_first_round_loser_damage",
        "mean damage to the round 1 loser",
        "expected damage the loser of the first round takes (0 on a draw)",
    ),
    MetricDecl::probability(
        "p_boarders_win_action",
        "P(boarders win the action)",
        "P(the boarders win the deciding round, or the boarded ship is reduced to 0 and a boarder survives), to the end",
    ),
    MetricDecl::probability(
        "p_defender_wins_action",
        "P(boarded ship wins the action)",
        "P(the boarded ship wins the deciding round, or every boarder is reduced to 0 and it survives), to the end",
    ),
    MetricDecl::probability(
        "p_both_destroyed",
        "P(both sides reduced to 0)",
        "P(the boarded ship and every boarder are reduced to 0 in the same end phase)",
    ),
];

/// Every metric of the boarding scenario, end-phase counts included.
pub fn metric_catalog() -> Vec<MetricDecl> {
    BOARDING_METRICS
        .into_iter()
        .chain(round_metrics(BoardingRule::ROUND))
        .collect()
}

/// The boarding action with its metric handles.
pub struct BoardingRule {
    b: Boarding,
    list: MetricList,
    m: BoardingMetrics,
}

struct BoardingMetrics {
    win: Metric,
    draw: Metric,
    lose: Metric,
    hulk: Metric,
    catastrophic: Metric,
    boarders_out: Metric,
    damage_to_defender: Metric,
    damage_to_boarders: Metric,
    defender_critical: Metric,
    boarder_critical: Vec<Metric>,
    defender_damage: Vec<Metric>,
    first_defender_critical: Metric,
    first_boarder_critical: Vec<Metric>,
    first_loser_damage: Vec<Metric>,
    mean_first_loser_damage: Metric,
    boarders_win: Metric,
    defender_wins: Metric,
    both_destroyed: Metric,
}

impl Boarding {
    /// The boarding model: the action repeated until it is over.
    pub fn into_model(self) -> RepeatModel<BoardingRule> {
        let mut list = MetricList::new();
        let d = &BOARDING_METRICS;
        let ships = 1..=self.attackers.remaining.len();
        // the first round's biggest possible margin: a 6 against a 1 plus
        // the difference in modifiers, and no more than the loser has left
        let (ma, md) = self.modifiers(&self.initial());
        let most_left = self.defender.remaining[0].max(self.attackers.remaining.iter().sum());
        let biggest = (5 + (ma - md).unsigned_abs()).min(most_left);
        let m = BoardingMetrics {
            win: list.add(&d[0]),
            draw: list.add(&d[1]),
            lose: list.add(&d[2]),
            hulk: list.add(&d[3]),
            catastrophic: list.add(&d[4]),
            boarders_out: list.add(&d[5]),
            damage_to_defender: list.add(&d[6]),
            damage_to_boarders: list.add(&d[7]),
            defender_critical: list.add(&d[8]),
            boarder_critical: list.family(&d[9], ships.clone()),
            defender_damage: list.family(&d[10], 0..=self.defender.remaining[0]),
            first_defender_critical: list.add(&d[11]),
            first_boarder_critical: list.family(&d[12], ships),
            first_loser_damage: list.family(&d[13], 0..=biggest),
            mean_first_loser_damage: list.add(&d[14]),
            boarders_win: list.add(&d[15]),
            defender_wins: list.add(&d[16]),
            both_destroyed: list.add(&d[17]),
        };
        RepeatModel::new(BoardingRule { b: self, list, m }, ROUNDS_SHOWN)
    }
}

impl Repeated for BoardingRule {
    type State = Board;

    const ROUND: &'static str = "end_phases";
    // short fights over many states (168 met in a chunk, 46 warm): the
    // wide walk ran 81 M trials/s against 162 M in the narrow lanes
    const WIDE: bool = false;

    fn start(&self) -> Board {
        self.b.initial()
    }

    fn over(&self, s: &Board) -> bool {
        s.over
    }

    fn sub_steps(&self) -> usize {
        3
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Board) {
        match i {
            0 => self.b.roll_scores(dice, s),
            1 => self.b.roll_crit_checks(dice, s),
            _ => self.b.resolve_crits(dice, s),
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Board, sink: &mut impl MetricSink) {
        let m = &self.m;
        let b = &self.b;
        sink.record(m.win, u64::from(s.first == 1));
        sink.record(m.draw, u64::from(s.first == 2));
        sink.record(m.lose, u64::from(s.first == 3));
        sink.record(m.hulk, u64::from(s.def_hulk));
        sink.record(m.catastrophic, u64::from(s.def_catastrophic && !s.def_hulk));
        sink.record(m.boarders_out, u64::from(s.att.iter().all(|&a| a == 0)));
        let def_damage = b.defender.remaining[0] - u32::from(s.def);
        sink.record(m.damage_to_defender, u64::from(def_damage));
        let att_left: u32 = s.att.iter().map(|&a| u32::from(a)).sum();
        sink.record(
            m.damage_to_boarders,
            u64::from(b.attackers.remaining.iter().sum::<u32>() - att_left),
        );
        sink.record(m.defender_critical, u64::from(s.def_crit));
        for (i, &h) in m.boarder_critical.iter().enumerate() {
            sink.record(h, u64::from(s.att_crit & (1 << i) != 0));
        }
        sink.record(m.defender_damage[def_damage as usize], 1);
        sink.record(
            m.first_defender_critical,
            u64::from(s.first_crits & (1 << MAX_ATTACKERS) != 0),
        );
        for (i, &h) in m.first_boarder_critical.iter().enumerate() {
            sink.record(h, u64::from(s.first_crits & (1 << i) != 0));
        }
        sink.record(m.first_loser_damage[usize::from(s.first_loser_damage)], 1);
        sink.record(m.mean_first_loser_damage, u64::from(s.first_loser_damage));
        // Who wins the action: "The player with the highest total score is
        // the winner" of the round that decides it (a draw grapples, and
        // the grapple goes on "until the boarding action results in one of
        // the ships being reduced to zero damage. The victorious (ie,
        // surviving) ship ..."); a side reduced to 0 loses whatever the
        // score (a winner lost to its own critical).
        let (def_gone, att_gone) = (s.def == 0, att_left == 0);
        let boarders_win = !att_gone && (def_gone || s.winner_attacker);
        let defender_wins = !def_gone && (att_gone || !s.winner_attacker);
        sink.record(m.boarders_win, u64::from(boarders_win));
        sink.record(m.defender_wins, u64::from(defender_wins));
        sink.record(m.both_destroyed, u64::from(def_gone && att_gone));
    }
}

/// The `boarding` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const BOARDING_SCENARIO: Scenario = Scenario {
    name: "boarding",
    about: "a boarding action fought to the end (grapples repeat every end phase)",
    seed_section: "BOARDING ACTIONS; Boarding Modifiers; Boarding Action Results; CRITICAL HITS",
    params: BoardingParams::decls,
    metrics: metric_catalog,
    build: build_boarding,
    variants: &[],
    test_points: &[
        &[
            ("attacker", "plagueclaw"),
            ("defender", "hyperion"),
            ("defender_turrets", "1"),
        ],
        &[
            ("boarding_ships", "2"),
            ("attacker_damage", "2"),
            ("attacker_starting_damage", "4"),
            ("attacker2_damage", "1"),
            ("attacker_escorts", "true"),
            ("defender_damage", "4"),
            ("defender_starting_damage", "8"),
            ("defender_turrets", "2"),
            ("defender_race", "space_marines"),
            ("defender_no_lances", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "two ships boarding, the second without preset or damage",
        point: 0,
        set: &[("boarding_ships", "2")],
        unset: &[],
        field: "attacker2_damage",
        words: &["attacker2 to a ship preset"],
    }],
    naive: super::naive::BOARDING,
};

const BOARDING: &str = "BOARDING ACTIONS";

/// Boarding ship `I` (1 the first).
#[derive(Clone, Debug)]
struct Boarder<const I: usize>;
/// The boarded ship.
#[derive(Clone, Debug)]
struct Boarded;
/// The boarding ships together, as the critical hits they take.
#[derive(Clone, Debug)]
struct Boarders;

impl<const I: usize> Who for Boarder<I> {
    fn who() -> String {
        format!("boarding ship {I}")
    }
}
impl<const I: usize> ShipRole for Boarder<I> {
    const STATS: &'static [&'static str] = &["starting_damage", "damage"];
    const SEED: &'static str = BOARDING;
}
impl Who for Boarded {
    fn who() -> String {
        "the boarded ship".into()
    }
}
impl ShipRole for Boarded {
    const STATS: &'static [&'static str] = &["starting_damage", "damage"];
    const SEED: &'static str = BOARDING;
}
impl Who for Boarders {
    fn who() -> String {
        "the boarders".into()
    }
}

const RACES: &[&str] = &["other", "orks", "chaos", "space_marines"];

crate::param_struct! {
    /// Parameters of the boarding scenario.
    struct BoardingParams {
        boarding_ships: i64 = int(1, MAX_ATTACKERS as i64)
            .default("1")
            .about("ships boarding together (their boarding values add up)")
            .seed(BOARDING),
        attacker: ShipParams<Boarder<1>> = prefixed("attacker"),
        attacker2: ShipParams<Boarder<2>> = prefixed("attacker2"),
        attacker3: ShipParams<Boarder<3>> = prefixed("attacker3"),
        attacker4: ShipParams<Boarder<4>> = prefixed("attacker4"),
        attacker_criticals: CriticalFlags<Boarders> = prefixed("attacker"),
        defender: ShipParams<Boarded> = prefixed("defender"),
        defender_criticals: CriticalFlags<Boarded> = prefixed("defender"),
        defender_turrets: i64 = int(0, 20)
            .required()
            .about("remaining turrets of the boarded ship")
            .seed(BOARDING),
        attacker_race: String = choice(RACES)
            .default("other")
            .about("Orks or Chaos +1, Space Marines +2")
            .seed("Boarding Modifiers"),
        defender_race: String = choice(RACES)
            .default("other")
            .about("Orks or Chaos +1, Space Marines +2")
            .seed("Boarding Modifiers"),
        defender_has_blast_markers: bool = flag()
            .about("+1 to the boarders")
            .seed("Boarding Modifiers"),
        defender_on_special_orders: bool = flag()
            .about("+1 to the boarders")
            .seed("Boarding Modifiers"),
        attacker_has_blast_markers: bool = flag()
            .about("+1 to the boarded ship")
            .seed("Boarding Modifiers"),
        attacker_on_special_orders: bool = flag()
            .about("+1 to the boarded ship")
            .seed("Boarding Modifiers"),
        attacker_escorts: bool = flag()
            .about("the boarders are escorts: any critical destroys them")
            .seed(BOARDING),
        defender_escort: bool = flag()
            .about("the boarded ship is an escort: any critical destroys it")
            .seed(BOARDING),
    }
}

fn build_boarding(p: &Params, _variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = BoardingParams::read(p)?;
    let count = p.boarding_ships as usize;
    let ships = [
        p.attacker.ship(),
        p.attacker2.ship(),
        p.attacker3.ship(),
        p.attacker4.ship(),
    ];
    let mut starting = Vec::new();
    let mut remaining = Vec::new();
    for ship in ships.into_iter().take(count) {
        let s = ship?;
        let r = s.remaining.need(&s)?;
        if r == 0 {
            return Err(ParamError::new(
                s.remaining.name,
                "a ship with 0 damage left has a boarding value of zero and cannot board",
            ));
        }
        remaining.push(r);
        starting.push(s.starting.value.unwrap_or(r));
    }
    let d = p.defender.ship()?;
    let dr = d.remaining.need(&d)?;
    let turrets = p.defender_turrets as u32;
    if dr == 0 {
        return Err(ParamError::new(
            d.remaining.name,
            "the boarded ship is already at 0 damage (boarding value zero): nothing to board",
        ));
    }
    let race = |race: &str| match race {
        "orks" | "chaos" => 1,
        "space_marines" => 2,
        _ => 0,
    };
    let flag = |f: bool, v: i32| if f { v } else { 0 };
    let attackers = Side {
        starting,
        remaining,
        turrets: 0,
        fixed_modifier: race(&p.attacker_race)
            + flag(p.defender_has_blast_markers, 1)
            + flag(p.defender_on_special_orders, 1),
        escorts: p.attacker_escorts,
        applies: p.attacker_criticals.applies(),
    };
    let defender = Side {
        starting: vec![d.starting.value.unwrap_or(dr)],
        remaining: vec![dr],
        turrets,
        fixed_modifier: race(&p.defender_race)
            + flag(p.attacker_has_blast_markers, 1)
            + flag(p.attacker_on_special_orders, 1),
        escorts: p.defender_escort,
        applies: p.defender_criticals.applies(),
    };
    Ok(Box::new(
        Boarding {
            attackers,
            defender,
        }
        .into_model(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Replay, StateDist};
    use crate::systems::testing;

    const PATHS: usize = 1 << 16;

    fn side(remaining: u32, starting: u32) -> Side {
        Side {
            starting: vec![starting],
            remaining: vec![remaining],
            turrets: 0,
            fixed_modifier: 0,
            escorts: false,
            applies: [true; 9],
        }
    }

    #[test]
    fn plagueclaw_hyperion_example_round() {
        // "the Hyperion (remaining damage 3) is boarded by the Plagueclaw
        // (remaining damage 6). After modifiers, the Plagueclaw scores a 6
        // while the Hyperion scores a 4. The Hyperion has lost by 2 so it
        // loses 2 damage points ... Heavy Fighting ... the Hyperion will
        // suffer a critical hit on a D6 roll of 4, 5 or 6. The Plagueclaw
        // will also suffer a critical hit on a D6 roll of 5 or 6."
        let b = Boarding {
            attackers: side(6, 6),
            defender: side(3, 6),
        };
        let mut s = b.initial();
        // With the Hyperion's starting damage set to 6 it is crippled: the
        // Plagueclaw has +2 (twice the boarding value) +2 (enemy crippled);
        // it rolls a 2 for a 6, the Hyperion rolls a 4 for a 4.
        struct Faces(Vec<u32>);
        impl Roller for Faces {
            fn roll(&mut self, _: u32) -> u32 {
                self.0.remove(0)
            }
        }
        let (ma, md) = b.modifiers(&s);
        assert_eq!(ma, 2 + 2, "twice the boarding value +2, enemy crippled +2");
        assert_eq!(md, 0);
        let mut dice = Faces(vec![2, 4]);
        b.roll_scores(&mut dice, &mut s);
        assert_eq!((s.winner_attacker, s.difference, s.def), (true, 2, 1));
        // Critical checks: the Plagueclaw (boarder, winner) rolls first, then
        // the Hyperion (defender, loser). A 4 cripples the Hyperion but not
        // the Plagueclaw, who needs a 5: the loser suffers on 4+.
        let mut check = s.clone();
        b.roll_crit_checks(&mut Faces(vec![4, 4]), &mut check);
        assert_eq!(check.pending_crits, 1 << MAX_ATTACKERS, "only the Hyperion");
        let mut check = s.clone();
        b.roll_crit_checks(&mut Faces(vec![5, 3]), &mut check);
        assert_eq!(check.pending_crits, 1, "only the Plagueclaw");
    }

    #[test]
    fn the_loser_of_an_overwhelming_round_always_suffers_and_the_winner_never() {
        // Boarders with +12 against a ship of 20 (which has +2 for twice
        // their boarding value) win by 5 to 15 every time, and the boarded
        // ship survives the round: "Overwhelmed Auto/None".
        let b = Boarding {
            attackers: Side {
                fixed_modifier: 12,
                ..side(8, 8)
            },
            defender: side(20, 20),
        };
        let model = b.into_model();
        let exact = model.exact().unwrap();
        let at = |name: &str| model.metrics().iter().position(|m| m.name == name).unwrap();
        assert!((exact[at("p_win")] - 1.0).abs() < 1e-12);
        assert!((exact[at("p_defender_critical_first_round")] - 1.0).abs() < 1e-12);
        assert!(exact[at("p_boarder1_critical_first_round")].abs() < 1e-12);
        assert!(exact[at("p_boarder1_critical")].abs() < 1e-12);
    }

    #[test]
    fn grapple_chain_matches_step_by_step_truncation() {
        // Absorption by elimination against brute force over 60 rounds.
        let b = Boarding {
            attackers: side(3, 6),
            defender: side(3, 6),
        };
        let model = b.clone().into_model();
        let at = |name: &str| model.metrics().iter().position(|m| m.name == name).unwrap();
        let exact = model.exact().unwrap();
        let mut d = StateDist::certain(b.initial());
        for _ in 0..60 {
            d = d
                .step(PATHS, |r: &mut Replay, s| b.roll_scores(r, s))
                .unwrap()
                .step(PATHS, |r: &mut Replay, s| b.roll_crit_checks(r, s))
                .unwrap()
                .step(PATHS, |r: &mut Replay, s| {
                    if !s.over {
                        b.resolve_crits(r, s)
                    }
                })
                .unwrap();
        }
        let p_hulk = d.prob(|s| s.def_hulk);
        assert!(
            (p_hulk - exact[at("p_hulk")]).abs() < 1e-9,
            "{p_hulk} vs {}",
            exact[at("p_hulk")]
        );
        let first = model
            .metrics()
            .iter()
            .position(|m| m.name == "end_phases=1")
            .unwrap();
        let total: f64 = exact[first..first + ROUNDS_SHOWN + 1].iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(
            (exact[at("p_win")] + exact[at("p_draw")] + exact[at("p_lose")] - 1.0).abs() < 1e-12
        );
    }

    /// A second boarding ship with no preset, or written "custom", and no
    /// damage: the error names the stat and the preset that would give it,
    /// not a "ship 'custom'" the spec never named; a real preset lacking
    /// a stat is still named as that preset.
    #[test]
    fn a_ship_without_a_stat_says_what_would_give_it() {
        let base = [
            ("attacker", "plagueclaw"),
            ("defender", "hyperion"),
            ("defender_turrets", "1"),
            ("boarding_ships", "2"),
        ];
        for second in [None, Some("custom"), Some("Custom")] {
            let mut pairs = base.to_vec();
            if let Some(preset) = second {
                pairs.push(("attacker2", preset));
            }
            let e = testing::refused(&super::super::RULES, "boarding", &pairs);
            assert_eq!(e.field, "attacker2_damage", "{second:?}: {e}");
            assert!(
                e.message
                    .contains("attacker2_damage is needed: set it, or attacker2 to a ship preset"),
                "{second:?}: {e}"
            );
            assert!(!e.message.contains("ship 'custom'"), "{second:?}: {e}");
        }
    }
}

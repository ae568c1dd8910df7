//! Tests of the piquet engine: scripted deals checked by hand, exchange and play legality,
//! agreement with `score_game`, and invariants over random deals and matches.

use std::collections::HashMap;

use super::*;
use crate::piquet::{score_declarations, score_game, Card, GameOptions, Hand, Role};

fn config(rules: Rules, scope: Scope) -> GameConfig {
    GameConfig::new(rules, scope).unwrap()
}

fn hand(text: &str) -> Hand {
    text.parse().unwrap()
}

fn id(text: &str) -> u16 {
    text.parse::<Card>().unwrap().id() as u16
}

/// Apply whitespace-separated action texts (`AH`, `x3`, `capot`, `pass`).
fn run(state: &mut State, script: &str) {
    for token in script.split_whitespace() {
        let action = state.string_to_action(token).unwrap();
        if let Err(e) = state.apply_action(action) {
            panic!("{token}: {e}\n{}", state.information_state_string(0).unwrap());
        }
    }
}

/// The cut (seat 0 draws `a`, seat 1 `b`) and the deal of `elder` and `dealer` (elder first,
/// alternately).
fn cut_and_deal(state: &mut State, a: &str, b: &str, elder: &str, dealer: &str) {
    run(state, &format!("{a} {b}"));
    let e: Vec<&str> = elder.split_whitespace().collect();
    let d: Vec<&str> = dealer.split_whitespace().collect();
    assert_eq!((e.len(), d.len()), (12, 12));
    for i in 0..12 {
        run(state, &format!("{} {}", e[i], d[i]));
    }
}

// ---- scripted deals -------------------------------------------------------------------------

const CAPOT_ELDER: &str = "7H 8H 9H TH JH QH KH AH AC KC AD AS";
const CAPOT_DEALER: &str = "7C 8C 9C TC JC QC 7D 8D 9D 7S 8S 9S";
const CAPOT_PLAY: &str = "AH 7C KH 7D QH 7S JH 8C TH 8D 9H 8S 8H 9C 7H 9D AS 9S AD TC AC JC KC QC";

/// Seat 1 draws the seven and deals; seat 0 is elder. Both decline the exchange.
fn capot_deal(announce: &str) -> State {
    let mut s = config(Rules::russian(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", CAPOT_ELDER, CAPOT_DEALER);
    assert_eq!((s.dealer(), s.elder()), (Some(1), Some(0)));
    assert_eq!(s.phase(), Phase::Exchange);
    run(&mut s, "x0");
    assert_eq!(s.current_player(), 1);
    run(&mut s, "x0");
    // Declarations: elder point of eight 8, huitième 18, fourteen aces 14 = 40; the dealer
    // nothing (his sixième and six clubs are beaten) → repique, 40 + 60 = 100.
    assert_eq!(s.declarations(), Some([[0, 8, 18, 14], [0, 0, 0, 0]]));
    assert_eq!(s.repique(), Some(0));
    assert_eq!(s.deal_scores(), [100, 0]);
    assert_eq!(s.rewards(), [100.0, 0.0]);
    assert_eq!(s.phase(), Phase::Announce);
    run(&mut s, announce);
    assert_eq!(s.phase(), Phase::Play);
    s
}

#[test]
fn repique_and_capot() {
    let mut s = capot_deal("pass pass");
    run(&mut s, "AH");
    assert_eq!(s.deal_scores(), [101, 0], "a lead scores 1");
    run(&mut s, "7C");
    assert_eq!(s.deal_scores(), [102, 0], "a trick scores 1");
    // No pique after a repique, even at 30 + with the dealer at 0.
    assert!(!s.pique());
    let before_last = {
        let mut t = s;
        let tokens: Vec<&str> = CAPOT_PLAY.split_whitespace().collect();
        run(&mut t, &tokens[2..23].join(" "));
        t
    };
    assert_eq!(before_last.deal_scores(), [100 + 23, 0]);
    let mut s = before_last;
    run(&mut s, "QC");
    // The capot: 40 instead of the last-trick extra and the leza. 100 + 24 + 40 = 164.
    assert_eq!(s.deal_scores(), [164, 0]);
    assert_eq!(s.rewards(), [41.0, 0.0]);
    assert!(s.is_terminal());
    assert_eq!(s.returns(), [164.0, -164.0]);
    assert_eq!(s.winner(), Some(0));
    let src = s.points_by_source()[0];
    assert_eq!(src, [40, 60, 24, 0, 0, 0, 40]);
    // The same as score_game.
    let tricks = tricks_of(&s);
    let g =
        score_game(hand(CAPOT_ELDER), hand(CAPOT_DEALER), &tricks, &Rules::russian(), &GameOptions::default()).unwrap();
    assert_eq!(g.totals, [164, 0]);
}

#[test]
fn open_capot_made_and_failed() {
    // Made: 80 instead of 40.
    let mut s = capot_deal("capot");
    assert_eq!(s.open_capot(), Some(0));
    run(&mut s, CAPOT_PLAY);
    assert_eq!(s.deal_scores(), [204, 0]);
    assert_eq!(s.points_by_source()[0][PointSource::Capot as usize], 80);
    // Announced by the dealer, who cannot make it: it costs nothing, elder's capot is 40.
    let mut s = capot_deal("pass capot");
    assert_eq!(s.open_capot(), Some(1));
    run(&mut s, CAPOT_PLAY);
    assert_eq!(s.deal_scores(), [164, 0]);
    // Elder announces and fails (loses the last trick): no bonus, no penalty; leza 10 and the
    // last trick's 4 go by the tricks.
    let mut s = capot_deal("capot");
    run(&mut s, "AH 7C KH 7D QH 7S JH 8C TH 8D 9H 8S 8H 9C 7H 9D AS 9S AD TC KC QC");
    // Elder led KC, the dealer's QC does not beat it... play the ace of clubs last instead:
    assert_eq!(s.tricks_won(), [11, 0]);
    run(&mut s, "AC JC");
    assert_eq!(s.tricks_won(), [12, 0]);
    // (He made it after all: the dealer has no club above the ace.)
    assert_eq!(s.deal_scores(), [204, 0]);
    // Only one announcement: after elder's, the dealer is not asked.
    let s = capot_deal("capot");
    assert_eq!(s.phase(), Phase::Play);
    assert!(s.information_state_string(1).unwrap().contains("capot: P0 announced, P1 -"));
}

#[test]
fn open_capot_failed_costs_nothing() {
    // Elder holds all hearts but the dealer keeps a club he cannot be forced to lose: the dealer
    // holds AC. Elder 7H..AH, KC QC JC TS; the dealer AC 7C 8C 9C 7D 8D 9D TD 7S 8S 9S JS.
    let elder = "7H 8H 9H TH JH QH KH AH KC QC JC TS";
    let dealer = "AC 7C 8C 9C 7D 8D 9D TD 7S 8S 9S JS";
    let mut s = config(Rules::russian(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", elder, dealer);
    run(&mut s, "x0 x0 capot");
    run(&mut s, "AH 7D KH 8D QH 9D JH TD TH 7S 9H 8S 8H 9S 7H JS KC AC");
    // The dealer won trick 9 with the ace and must lead: 7C, elder wins with… QC, then JC, TS.
    run(&mut s, "7C QC JC 8C TS 9C");
    assert!(s.is_terminal());
    assert_eq!(s.tricks_won(), [11, 1]);
    let g = score_game(
        hand(elder),
        hand(dealer),
        &tricks_of(&s),
        &Rules::russian(),
        &GameOptions { open_capot: Some(Role::Elder), ..GameOptions::default() },
    )
    .unwrap();
    assert_eq!(s.deal_scores(), g.totals);
    assert_eq!(s.points_by_source()[0][PointSource::Capot as usize], 0);
    assert_eq!(s.points_by_source()[0][PointSource::Leza as usize], 10);
}

/// The source's play example: elder declares 18, the dealer 6; "elder leads 19, the dealer
/// takes the trick 7, the dealer leads 8". Elder reaches his hand by exchanging 3.
#[test]
fn exchange_then_the_sources_play_order() {
    let elder_dealt = "TH JH QH KH AH QC 7C 9C QD 8S JS KS";
    let dealer = "7D 9D TD JD KD AD 7H 8H 9H 8C TC JC";
    let mut s = config(Rules::russian(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", elder_dealt, dealer);
    run(&mut s, "x3");
    assert_eq!(s.phase(), Phase::Discard);
    // Ascending discards: the two highest cards (JS, KS) cannot come first.
    assert!(!s.is_legal(id("JS")) && !s.is_legal(id("KS")) && s.is_legal(id("8S")) && s.is_legal(id("7C")));
    run(&mut s, "8S");
    // Now only cards above 8S, leaving one above: JS.
    assert_eq!(s.legal_actions().to_vec(), [id("JS")]);
    run(&mut s, "JS KS");
    assert_eq!(s.phase(), Phase::Draw);
    assert!(s.is_chance_node());
    assert_eq!(s.chance_outcomes().len(), 8, "the 8 undealt cards");
    assert!(!s.is_legal(id("8S")), "a discard does not go back into the pack");
    run(&mut s, "8D 7S 9S");
    assert_eq!(s.discards(0), hand("8S JS KS"));
    assert_eq!(s.drawn(0), hand("8D 7S 9S"));
    assert_eq!(s.phase(), Phase::Exchange);
    assert_eq!(s.current_player(), 1);
    // Elder took 3: 5 are left, the dealer may take 0 or 3..5.
    assert_eq!(s.legal_actions().to_vec(), [EXCHANGE_BASE, EXCHANGE_BASE + 3, EXCHANGE_BASE + 4, EXCHANGE_BASE + 5]);
    run(&mut s, "x0");
    assert_eq!(s.kept(0), hand("TH JH QH KH AH QC 7C 9C QD 8D 7S 9S"));
    let cats = s.declarations().unwrap();
    let sd = score_declarations(s.kept(0), s.kept(1), &Rules::russian(), Some(s.dealt_hand(0)), Some(s.dealt_hand(1)))
        .unwrap();
    let cat = |c: crate::piquet::CategoryScore| c.points;
    let expect = [cat(sd.carte_blanche), cat(sd.point), cat(sd.sequences), cat(sd.sets)];
    for c in 0..4 {
        assert_eq!([cats[0][c], cats[1][c]], expect[c]);
    }
    // The dealer's six diamonds win the point (6); elder's quint major (15) and three queens (3).
    assert_eq!(cats, [[0, 0, 15, 3], [0, 6, 0, 0]]);
    assert_eq!(s.deal_scores(), [18, 6]);
    run(&mut s, "pass pass");
    run(&mut s, "9C");
    assert_eq!(s.deal_scores(), [19, 6]);
    run(&mut s, "TC");
    assert_eq!(s.deal_scores(), [19, 7]);
    run(&mut s, "JC");
    assert_eq!(s.deal_scores(), [19, 8]);
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.legal_actions().to_vec(), [id("7C"), id("QC")], "elder must follow in clubs");
}

/// Rubicon: mandatory exchange for elder, the dealer may take all that is left; the dealer's
/// declarations are credited after elder's first lead; a pique.
#[test]
fn rubicon_exchange_and_timing() {
    let elder = "7H 8H 9H TH JH QH KH AH AC KC AD 7S";
    let dealer = "7C 8C 9C TC JC QC 7D 8D 9D 8S 9S TS";
    let mut s = config(Rules::rubicon(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", elder, dealer);
    let sizes: Vec<u16> = (1..=5).map(|n| EXCHANGE_BASE + n).collect();
    assert_eq!(s.legal_actions().to_vec(), sizes, "rubicon elder must exchange 1 to 5");
    run(&mut s, "x1 7S");
    run(&mut s, "AS");
    assert_eq!(s.current_player(), 1);
    let sizes: Vec<u16> = (0..=7).map(|n| EXCHANGE_BASE + n).collect();
    assert_eq!(s.legal_actions().to_vec(), sizes, "the dealer may take up to all 7 left");
    run(&mut s, "x0");
    // No announcement phase in rubicon: the play starts.
    assert_eq!(s.phase(), Phase::Play);
    let cats = s.declarations().unwrap();
    // Elder: point of eight 8, huitième 18, fourteen aces 14 → 40, repique (+60) = 100; the
    // dealer nothing in any category (his sixième is beaten).
    assert_eq!(cats, [[0, 8, 18, 14], [0, 0, 0, 0]]);
    assert_eq!(s.deal_scores(), [100, 0]);
    assert_eq!(s.repique(), Some(0));
}

#[test]
fn rubicon_dealer_declarations_come_after_the_first_lead() {
    // Elder: hearts 7..K (sixième, point of six), the dealer four aces and a quart.
    let elder = "7H 8H 9H TH JH QH KH 7C 8C 7D 8D 7S";
    let dealer = "AH AC AD AS 9C TC JC QC 9D TD 9S TS";
    let mut s = config(Rules::rubicon(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", elder, dealer);
    run(&mut s, "x1 7S KS x0");
    let cats = s.declarations().unwrap();
    // Elder: point of 7 (with KS? no, KS is a spade): hearts 7 cards 7H..KH = point 7, a
    // septième 17; the dealer's fourteen aces 14.
    assert_eq!(cats[0][1..3], [7, 17]);
    assert_eq!(cats[1][3], 17, "fourteen aces and three tens");
    assert_eq!(s.deal_scores(), [24, 0], "the dealer's declarations are not yet credited");
    run(&mut s, "KH");
    assert_eq!(s.deal_scores(), [25, 17]);
    assert_eq!(s.rewards(), [1.0, 17.0]);
}

#[test]
fn follow_suit_is_enforced() {
    let mut s = capot_deal("pass pass");
    run(&mut s, "AH");
    // The dealer has no hearts: any card.
    assert_eq!(s.legal_actions().len(), 12);
    run(&mut s, "7C");
    run(&mut s, "AC");
    // Now he holds clubs: only clubs.
    let clubs: Vec<u16> = ["8C", "9C", "TC", "JC", "QC"].iter().map(|c| id(c)).collect();
    assert_eq!(s.legal_actions().to_vec(), clubs);
    let before = s;
    let err = s.apply_action(id("7D")).unwrap_err();
    assert!(err.to_string().contains("illegal action 8 (7D) in the play phase for player 1"), "{err}");
    assert!(err.to_string().contains("legal actions: [1 (8C)"), "{err}");
    assert_eq!(s, before);
    assert!(s.apply_action(PASS).is_err());
    assert!(s.apply_action(999).is_err());
    assert_eq!(s, before);
}

#[test]
fn russian_exchange_limits() {
    let r = config(Rules::russian(), Scope::Deal);
    let mut rng = Rng::new(4);
    let x = |n: u16| EXCHANGE_BASE + n;
    for (elder, dealer) in [(0, vec![0, 3, 4, 5]), (3, vec![0, 3, 4, 5]), (4, vec![0, 3, 4]), (5, vec![0, 3])] {
        let mut s = r.new_initial_state();
        s.apply_sampled_chances(&mut rng);
        assert_eq!(s.legal_actions().to_vec(), [x(0), x(3), x(4), x(5)]);
        assert!(!s.is_legal(x(1)) && !s.is_legal(x(2)) && !s.is_legal(x(6)));
        s.apply_action(x(elder)).unwrap();
        for _ in 0..elder {
            let l = s.legal_actions();
            s.apply_action(l[0]).unwrap();
        }
        s.apply_sampled_chances(&mut rng);
        assert_eq!(s.current_player(), s.dealer().unwrap() as Player);
        let want: Vec<u16> = dealer.iter().map(|&n| x(n)).collect();
        assert_eq!(s.legal_actions().to_vec(), want, "elder took {elder}");
    }
}

#[test]
fn config_and_names() {
    assert!(GameConfig::new(Rules::russian(), Scope::Partiya).is_ok());
    let mut r = Rules::russian();
    r.elder_exchange.may_decline = false;
    r.dealer_exchange = crate::piquet::ExchangeLimits { min: 5, max: 5, may_decline: false };
    assert!(GameConfig::new(r, Scope::Deal).is_err(), "the dealer could be left with nothing legal");
    assert_eq!(Scope::parse("partie").unwrap(), Scope::Partiya);
    assert!(Scope::parse("rubber").is_err());
    let s = GameConfig::default().new_initial_state();
    for a in 0..NUM_DISTINCT_ACTIONS as u16 {
        let text = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&text).unwrap(), a, "{text}");
    }
    assert!(s.action_to_string(NUM_DISTINCT_ACTIONS as u16).is_err());
    assert_eq!(s.string_to_action("x5").unwrap(), EXCHANGE_BASE + 5);
    assert_eq!(s.string_to_action("10♥").unwrap(), id("TH"));
    assert!(s.string_to_action("exchange 9").is_err());
    assert!(s.string_to_action("5H").is_err());
    assert!(s.string_to_action("AH KH").is_err());
}

#[test]
fn the_draw_for_deal() {
    let mut s = GameConfig::default().new_initial_state();
    run(&mut s, "9H");
    assert_eq!(s.legal_actions().len(), 31, "the other seat draws from the rest");
    run(&mut s, "9C");
    assert_eq!((s.phase(), s.cut_cards()), (Phase::Cut, [None, None]), "equal ranks draw again");
    run(&mut s, "AC 7S");
    assert_eq!((s.dealer(), s.phase(), s.deals()), (Some(1), Phase::Deal, 1), "the lower card deals");
    assert_eq!(s.legal_actions().len(), 32, "the cards drawn go back into the pack");
}

// ---- agreement with score_game ---------------------------------------------------------------

fn tricks_of(s: &State) -> Vec<(Card, Card)> {
    let plays: Vec<u8> = s.plays().map(|(_, c)| c).collect();
    plays.chunks(2).map(|t| (Card::from_id(t[0] as i64).unwrap(), Card::from_id(t[1] as i64).unwrap())).collect()
}

fn random_deal(rules: Rules, rng: &mut Rng) -> State {
    let mut s = config(rules, Scope::Deal).new_initial_state();
    while !s.is_terminal() {
        let l = s.legal_actions();
        s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    s
}

fn check_against_score_game(s: &State, rules: &Rules) {
    let (e, d) = (s.elder().unwrap(), s.dealer().unwrap());
    let options = GameOptions {
        elder_dealt: Some(s.dealt_hand(e)),
        dealer_dealt: Some(s.dealt_hand(d)),
        open_capot: s.open_capot().map(|p| if p == e { Role::Elder } else { Role::Dealer }),
        ..GameOptions::default()
    };
    let g = score_game(s.kept(e), s.kept(d), &tricks_of(s), rules, &options).unwrap();
    let totals = s.deal_scores();
    assert_eq!([totals[e], totals[d]], g.totals, "{s:?}\n{g}");
    assert_eq!(s.pique(), g.pique);
    assert_eq!(s.repique().map(|p| p == e), g.repique.map(|p| p == Role::Elder));
    let cats = s.declarations().unwrap();
    let gc = g.declarations.categories();
    for c in 0..4 {
        assert_eq!([cats[e][c], cats[d][c]], gc[c].points);
    }
    assert_eq!([s.tricks_won()[e], s.tricks_won()[d]], g.tricks_won);
    // By source: the declarations and the repique as the core's declaration score.
    let src = s.points_by_source();
    let decl = [src[e][0] + src[e][1], src[d][0] + src[d][1]];
    assert_eq!(decl, g.declarations.totals.map(|x| x as u32));
}

#[test]
fn end_of_deal_totals_equal_score_game() {
    let n = if cfg!(debug_assertions) { 1_500 } else { 30_000 };
    let mut blocked = Rules::russian();
    blocked.pique_blocked_by_play = true;
    for rules in [Rules::russian(), Rules::rubicon(), blocked] {
        let mut rng = Rng::new(21);
        let (mut piques, mut repiques, mut capots) = (0, 0, 0);
        for _ in 0..n {
            let s = random_deal(rules, &mut rng);
            check_against_score_game(&s, &rules);
            piques += s.pique() as u32;
            repiques += s.repique().is_some() as u32;
            capots += s.tricks_won().contains(&12) as u32;
        }
        assert!(piques > 0 && repiques > 0, "{piques} {repiques} {capots}");
    }
}

/// Deals played by "first" (lowest action) and mixed policies reach capots and open capots.
#[test]
fn capots_agree_with_score_game() {
    let rules = Rules::russian();
    let mut rng = Rng::new(5);
    let mut capots = 0;
    let n = if cfg!(debug_assertions) { 3_000 } else { 50_000 };
    for _ in 0..n {
        // Elder plays his highest card, the dealer his lowest: capots happen.
        let mut s = config(rules, Scope::Deal).new_initial_state();
        while !s.is_terminal() {
            let l = s.legal_actions();
            let a = if s.phase() == Phase::Play {
                if s.current_player() as usize == s.elder().unwrap() {
                    l[l.len() - 1]
                } else {
                    l[0]
                }
            } else {
                l[rng.below(l.len() as u32) as usize]
            };
            s.apply_action(a).unwrap();
        }
        check_against_score_game(&s, &rules);
        capots += s.tricks_won().contains(&12) as u32;
    }
    assert!(capots > 0);
}

// ---- invariants over random deals and matches ------------------------------------------------

fn info_tensor(s: &State, p: usize) -> Vec<f32> {
    s.information_state_tensor_vec(p).unwrap()
}

/// Random games, checking the state's own consistency at every state and the zero-sum payoff
/// at the end; then the engine framework's conformance suite (action sets, illegal actions,
/// rewards, round trips, undo, resampling, tensors) on `conformance_games` more.
fn random_games(cfg: GameConfig, games: usize, seed: u64, conformance_games: usize) -> Vec<State> {
    let mut rng = Rng::new(seed);
    let mut ends = Vec::new();
    for _ in 0..games {
        let mut s = cfg.new_initial_state();
        while !s.is_terminal() {
            s.check_invariants().unwrap_or_else(|e| panic!("{e}: {s:?}"));
            let a = match s.sample_chance(&mut rng) {
                Some(a) => a,
                None => {
                    let legal = s.legal_actions();
                    legal[rng.below(legal.len() as u32) as usize]
                }
            };
            s.apply_action(a).unwrap();
        }
        s.check_invariants().unwrap();
        let r = s.returns();
        assert_eq!(r[0], -r[1]);
        ends.push(s);
    }
    let report =
        crate::engine::conformance::check_game(&cfg, conformance_games, seed).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.games, conformance_games);
    ends
}

const DEALS: usize = if cfg!(debug_assertions) { 250 } else { 12_000 };
const MATCHES: usize = if cfg!(debug_assertions) { 25 } else { 2_000 };
const CONFORMANCE_GAMES: usize = if cfg!(debug_assertions) { 10 } else { 200 };

#[test]
fn random_russian_deals() {
    random_games(config(Rules::russian(), Scope::Deal), DEALS, 1, CONFORMANCE_GAMES);
}

#[test]
fn random_rubicon_deals() {
    random_games(config(Rules::rubicon(), Scope::Deal), DEALS, 2, CONFORMANCE_GAMES);
}

#[test]
fn random_russian_partiyas() {
    let ends = random_games(config(Rules::russian(), Scope::Partiya), MATCHES, 3, CONFORMANCE_GAMES);
    let mut refets = 0;
    for s in &ends {
        // The net win, recomputed with Partiya from the games.
        let mut p = Partiya::new(&Rules::russian()).unwrap();
        for g in s.games() {
            let game = p.add_game(g[0] as u64, g[1] as u64).unwrap();
            refets += game.written.is_none() as u32;
        }
        assert!(p.is_over());
        let r = p.result();
        let expected = match r.net_win {
            Some(w) if w.seat == 0 => w.points as f64,
            Some(w) => -(w.points as f64),
            None => 0.0,
        };
        assert_eq!(s.returns()[0], expected);
        assert_eq!(s.koroliks(), 2);
        assert!((2..=4).contains(&s.games_played()));
        let sums: u32 = s.games().iter().map(|g| g[0] as u32 + g[1] as u32).sum();
        assert_eq!(sums, s.seat_scores()[0] + s.seat_scores()[1]);
    }
    if !cfg!(debug_assertions) {
        assert!(refets > 0, "no рефет in {} partiyas", ends.len());
    }
}

#[test]
fn random_rubicon_parties() {
    let ends = random_games(config(Rules::rubicon(), Scope::Partiya), MATCHES, 4, CONFORMANCE_GAMES);
    for s in &ends {
        let mut p = Partie::new(&Rules::rubicon()).unwrap();
        for g in s.games() {
            p.add_deal(g[0] as u64, g[1] as u64).unwrap();
        }
        assert!(p.is_over());
        let r = p.result().unwrap();
        let expected = if r.winner == 0 { r.score as f64 } else { -(r.score as f64) };
        assert_eq!(s.returns()[0], expected);
        assert!(s.games_played() >= 6 && s.games_played() % 2 == 0);
    }
}

/// A scripted partiya through its koroliks: the draw before each korolik, the deal alternating
/// within it, and the net win per Partiya.
#[test]
fn partiya_scope_draws_and_alternates() {
    let mut s = GameConfig::default().new_initial_state();
    let mut rng = Rng::new(77);
    let mut dealers = Vec::new();
    let mut draws = 0;
    while !s.is_terminal() {
        if s.phase() == Phase::Cut && s.cut_cards() == [None, None] {
            draws += 1;
        }
        if s.phase() == Phase::Deal && s.legal_actions().len() == 32 {
            dealers.push((s.dealer().unwrap(), s.koroliks(), s.korolik_games));
        }
        let l = s.legal_actions();
        s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    assert!(draws >= 2, "a draw before each korolik");
    for w in dealers.windows(2) {
        if w[1].1 == w[0].1 {
            assert_ne!(w[0].0, w[1].0, "the deal alternates within a korolik");
        }
    }
    let mut p = Partiya::new(&Rules::russian()).unwrap();
    for g in s.games() {
        p.add_game(g[0] as u64, g[1] as u64).unwrap();
    }
    let net = p.result().net_win.map_or(0, |w| if w.seat == 0 { w.points as i64 } else { -(w.points as i64) });
    assert_eq!(s.returns()[0] as i64, net);
    assert!(net.unsigned_abs() >= 100 || net == 0);
}

/// The information state tensor differs exactly when the information state text differs (for
/// a given observer), and the observation tensor is a function of the information.
#[test]
fn tensors_differ_when_information_differs() {
    for cfg in [config(Rules::russian(), Scope::Partiya), config(Rules::rubicon(), Scope::Deal)] {
        let mut rng = Rng::new(99);
        let mut by_text: HashMap<(usize, String), (Vec<u32>, Vec<u32>)> = HashMap::new();
        let mut by_tensor: HashMap<(usize, Vec<u32>), String> = HashMap::new();
        let games = if cfg!(debug_assertions) { 2 } else { 30 };
        for _ in 0..games {
            let mut s = cfg.new_initial_state();
            while !s.is_terminal() {
                let mut visit = vec![s];
                if !s.is_chance_node() || rng.below(6) == 0 {
                    visit.extend(s.legal_actions().iter().filter_map(|&a| s.child(a).ok()));
                }
                for t in &visit {
                    for p in 0..2 {
                        let text = t.information_state_string(p).unwrap();
                        let info: Vec<u32> = info_tensor(t, p).iter().map(|x| x.to_bits()).collect();
                        let obs: Vec<u32> = t.observation_tensor_vec(p).unwrap().iter().map(|x| x.to_bits()).collect();
                        let prev = by_text.entry((p, text.clone())).or_insert_with(|| (info.clone(), obs.clone()));
                        assert_eq!(prev.0, info, "same information, different tensors:\n{text}");
                        assert_eq!(prev.1, obs, "same information, different observations:\n{text}");
                        let prev = by_tensor.entry((p, info)).or_insert_with(|| text.clone());
                        assert_eq!(*prev, text, "different information, same tensor");
                    }
                }
                let l = s.legal_actions();
                s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
            }
        }
        assert!(by_text.len() > 300, "{}", by_text.len());
    }
}

#[test]
fn own_discards_and_declarations_are_information() {
    let mut a = config(Rules::russian(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut a, "KS", "7D", CAPOT_ELDER, CAPOT_DEALER);
    run(&mut a, "x3");
    let mut b = a;
    run(&mut a, "7H 8H 9H");
    run(&mut b, "7H 8H TH");
    assert_ne!(a.information_state_string(0).unwrap(), b.information_state_string(0).unwrap());
    assert_ne!(info_tensor(&a, 0), info_tensor(&b, 0));
    // The dealer knows only that elder discarded three.
    assert_eq!(a.information_state_string(1).unwrap(), b.information_state_string(1).unwrap());
    assert_eq!(info_tensor(&a, 1), info_tensor(&b, 1));
    assert!(a.information_state_string(0).unwrap().contains("discarded: 7H 8H 9H"));
    assert!(a.information_state_string(2).is_err());
    let mut short = vec![0.0; 10];
    assert!(a.information_state_tensor(0, &mut short).is_err());
}

#[test]
fn resampling_keeps_the_declarations_and_voids() {
    // After the capot deal's first tricks, the dealer has shown out of hearts and heard elder's
    // huitième (18), point of eight (8) and a fourteen (14): every resampled elder hand holds
    // all hearts and a fourteen.
    let mut s = capot_deal("pass pass");
    run(&mut s, "AH 7C KH 7D");
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        let r = s.resample_from_infostate(1, &mut rng).unwrap();
        let hearts = hand("7H 8H 9H TH JH QH KH AH");
        assert_eq!(r.kept(0).intersection(hearts), hearts, "a huitième and a point of eight: all hearts");
        let fourteen = (0..8).any(|rank| (0..4).all(|suit| r.kept(0).mask() >> (suit * 8 + rank) & 1 == 1));
        assert!(fourteen, "a fourteen");
        let r = s.resample_from_infostate(0, &mut rng).unwrap();
        assert_eq!(
            r.hand(1).intersection(hand("7H 8H 9H TH JH QH KH AH")),
            Hand::new(),
            "the dealer is void in hearts"
        );
        assert_eq!(r.declarations(), s.declarations());
        assert_eq!(r.hand(0), s.hand(0));
    }
}

/// Resampling is uniform: before any declaration, every unseen card is as likely to be in
/// the opponent's hand.
#[test]
fn resampling_is_uniform_before_the_declarations() {
    let mut s = config(Rules::russian(), Scope::Deal).new_initial_state();
    let mut rng = Rng::new(8);
    s.apply_sampled_chances(&mut rng);
    let mut counts = [0u32; 32];
    let n = 4000;
    for _ in 0..n {
        let r = s.resample_from_infostate(0, &mut rng).unwrap();
        assert_eq!(r.hand(0), s.hand(0));
        for c in r.hand(1) {
            counts[c.id() as usize] += 1;
        }
    }
    let own = s.hand(0).mask();
    for (c, &count) in counts.iter().enumerate() {
        if own >> c & 1 == 1 {
            assert_eq!(count, 0);
        } else {
            // 12 of the 20 unseen cards: p = 0.6.
            let p = count as f64 / n as f64;
            assert!((p - 0.6).abs() < 0.05, "card {c}: {p}");
        }
    }
}

#[test]
fn deserialize_rejects_bad_text_without_panicking() {
    let mut rng = Rng::new(8);
    let mut texts = Vec::new();
    for cfg in [GameConfig::default(), config(Rules::rubicon(), Scope::Partiya)] {
        let mut s = cfg.new_initial_state();
        while !s.is_terminal() {
            texts.push(s.serialize());
            let l = s.legal_actions();
            s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
        }
        texts.push(s.serialize());
    }
    assert!(State::deserialize("").is_err());
    assert!(State::deserialize("piquet/1").is_err());
    let mut accepted = 0;
    let junk =
        ["0", "1", "2", "-", "ffff", "fff000", "AH", "0,0", "1,1", "play", "deal", "AH,7H", "99", "0/0/0/0,0/0/0/0"];
    for text in texts.iter().step_by(9) {
        let tokens: Vec<&str> = text.split(' ').collect();
        for _ in 0..25 {
            let mut t = tokens.clone();
            let i = 1 + rng.below(t.len() as u32 - 1) as usize;
            let (key, _) = t[i].split_once('=').unwrap();
            let replaced = format!("{key}={}", junk[rng.below(junk.len() as u32) as usize]);
            t[i] = &replaced;
            let text = t.join(" ");
            if let Ok(mut state) = State::deserialize(&text) {
                accepted += 1;
                let mut steps = 0;
                while !state.is_terminal() && steps < 3000 {
                    let l = state.legal_actions();
                    assert!(!l.is_empty(), "{text}");
                    state.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
                    let _ = state.information_state_string(0);
                    let _ = state.resample_from_infostate(0, &mut rng);
                    steps += 1;
                }
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn state_is_small_and_copy() {
    fn is_copy<T: Copy>() {}
    is_copy::<State>();
    println!("State: {} bytes", std::mem::size_of::<State>());
    assert!(std::mem::size_of::<State>() <= 400, "{}", std::mem::size_of::<State>());
}

/// The cost of exact resampling after the declarations, over many random states:
/// `cargo test --release --lib piquet::game::tests::resample_cost -- --ignored --nocapture`.
#[test]
#[ignore]
fn resample_cost() {
    for rules in [Rules::russian(), Rules::rubicon()] {
        let mut rng = Rng::new(31);
        let (mut worst, mut total, mut n) = (0f64, 0f64, 0u32);
        for _ in 0..5_000 {
            let mut s = config(rules, Scope::Deal).new_initial_state();
            while !s.is_terminal() {
                if s.declarations().is_some() && rng.below(4) == 0 {
                    for p in 0..2 {
                        let t = std::time::Instant::now();
                        s.resample_from_infostate(p, &mut rng).unwrap();
                        let us = t.elapsed().as_secs_f64() * 1e6;
                        worst = worst.max(us);
                        total += us;
                        n += 1;
                    }
                }
                let l = s.legal_actions();
                s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
            }
        }
        println!("{n} resamples: mean {:.1} µs, worst {worst:.0} µs", total / n as f64);
    }
}

/// A hand-checked pique: elder declares 26 (point of eight 8, huitième 18), the dealer nothing;
/// elder's leads and tricks carry him 26 → 30 before the dealer scores: +30.
#[test]
fn pique() {
    let elder = "7H 8H 9H TH JH QH KH AH 7C 8C 7D 7S";
    let dealer = "9C 8D 9D 8S 9S TC TD JC JD QC QS KS";
    let mut s = config(Rules::russian(), Scope::Deal).new_initial_state();
    cut_and_deal(&mut s, "KS", "7D", elder, dealer);
    run(&mut s, "x0 x0 pass pass");
    assert_eq!(s.declarations(), Some([[0, 8, 18, 0], [0, 0, 0, 0]]));
    assert_eq!((s.deal_scores(), s.repique()), ([26, 0], None));
    run(&mut s, "AH 8D KH");
    assert_eq!(s.deal_scores(), [29, 0]);
    assert!(!s.pique());
    run(&mut s, "9D");
    // The trick makes 30: pique, 60.
    assert!(s.pique());
    assert_eq!(s.deal_scores(), [60, 0]);
    assert_eq!(s.rewards(), [31.0, 0.0]);
    assert_eq!(s.points_by_source()[0][PointSource::Pique as usize], 30);
    let mut rng = Rng::new(2);
    while !s.is_terminal() {
        let l = s.legal_actions();
        s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
    }
    check_against_score_game(&s, &Rules::russian());
}

/// Rules §4 (revised), in the engine: the dealer wins trick 1 and leads trick 2 before elder
/// reaches 30. russian (`pique_blocked_by_play = false`): elder's pique stands; with the field
/// set: no pique. The engine and `score_game` agree on the rest of the deal either way.
#[test]
fn pique_after_the_dealers_play_points() {
    let elder = "7H 8H 9H TH JH QH KH AH AC 8C 7D 7S";
    let dealer = "9C 8D 9D 8S 9S TC TD JC JD QC QS KS";
    let mut blocked = Rules::russian();
    blocked.pique_blocked_by_play = true;
    for (rules, pique, scores) in [(Rules::russian(), true, [60, 2]), (blocked, false, [30, 2])] {
        let mut s = config(rules, Scope::Deal).new_initial_state();
        cut_and_deal(&mut s, "KS", "7D", elder, dealer);
        run(&mut s, "x0 x0 pass pass");
        assert_eq!(s.deal_scores(), [26, 0]);
        // 8C (27), the dealer's QC wins (1) and he leads 9C (2); AC wins (28); AH (29), 8D: 30.
        run(&mut s, "8C QC 9C AC AH");
        assert_eq!((s.deal_scores(), s.pique()), ([29, 2], false));
        run(&mut s, "8D");
        assert_eq!((s.deal_scores(), s.pique()), (scores, pique));
        // Serialization keeps the rules' new fields.
        assert_eq!(config(rules, Scope::Deal).deserialize_state(&s.serialize()).unwrap(), s);
        let mut rng = Rng::new(3);
        while !s.is_terminal() {
            let l = s.legal_actions();
            s.apply_action(l[rng.below(l.len() as u32) as usize]).unwrap();
        }
        check_against_score_game(&s, &rules);
    }
}

/// The rules' fields survive a serialization round trip, and a state of other rules is refused.
#[test]
fn serialization_keeps_every_rules_field() {
    let mut rules = Rules::rubicon();
    rules.pique_blocked_by_play = false;
    rules.silence_covers = crate::piquet::SilenceCovers::Tricks;
    let s = random_deal(rules, &mut Rng::new(8));
    let text = s.serialize();
    assert!(text.contains(";pique:0;silence:tricks"), "{text}");
    assert_eq!(config(rules, Scope::Deal).deserialize_state(&text).unwrap(), s);
    assert!(config(Rules::rubicon(), Scope::Deal).deserialize_state(&text).is_err());
}

/// Policies written against `GameState` play piquet unchanged.
#[test]
fn policies_plug_in() {
    use crate::engine::{play_out, FirstPolicy, Policy, RandomPolicy};
    let mut players: Vec<Box<dyn Policy<State>>> = vec![Box::new(RandomPolicy), Box::new(FirstPolicy)];
    for cfg in [GameConfig::default(), config(Rules::rubicon(), Scope::Partiya)] {
        let end = play_out(cfg.new_initial_state(), &mut players, &mut Rng::new(7)).unwrap();
        assert!(end.is_terminal());
        assert_eq!(end.returns()[0], -end.returns()[1]);
        assert!(end.chance_outcomes().is_empty());
    }
}

// ---- deserialize_state accepts exactly the reachable states (issue 8.4) ----------------------

use crate::engine::serial::with_field;

fn refused(text: &str) -> String {
    State::deserialize(text).err().unwrap_or_else(|| panic!("accepted an unreachable state: {text}")).to_string()
}

#[test]
fn deserialize_refuses_unreachable_rewards_and_sources() {
    // The capot deal after the first trick (AH led, 7C under it): elder 40 declared + 60
    // repique + a lead + a trick; the last action (the dealer's 7C) gave elder the trick's 1.
    let mut s = capot_deal("pass pass");
    run(&mut s, "AH 7C");
    let text = s.serialize();
    assert!(text.contains(" rewards=1,0 ") && text.contains(" sources=40,60,2,0,0,0,0,0,0,0,0,0,0,0 "), "{text}");
    assert_eq!(State::deserialize(&text).unwrap(), s);
    let msg = refused(&with_field(&text, "rewards", "0,0"));
    assert!(msg.contains("rewards=0,0 is not reachable: the deal replayed gives rewards=1,0"), "{msg}");
    refused(&with_field(&text, "rewards", "2,0"));
    // Points moved between sources (the totals unchanged).
    refused(&with_field(&text, "sources", "40,60,1,0,0,0,1,0,0,0,0,0,0,0"));
    refused(&with_field(&text, "sources", "39,60,2,1,0,0,0,0,0,0,0,0,0,0"));
    refused(&with_field(&text, "sources", "100,0,2,0,0,0,0,0,0,0,0,0,0,0"));
    // Other fields of the deal and the match.
    for (key, value) in [
        ("phase", "announce"),
        ("turn", "1"),
        ("deals", "2"),
        ("dealer", "0"),
        ("scores", "103,0"),
        ("tricks", "0,1"),
        ("pique", "1"),
        ("outcome", "5"),
        ("plays", "AH,7D"),
        ("plays", "AH,AH"),
    ] {
        refused(&with_field(&text, key, value));
    }
    // A card moved between the hands, a card in both hands, a card dealt twice.
    let kh = id("KH") as u32;
    assert!(s.hands[0] >> kh & 1 == 1);
    let mut m = s;
    m.hands[0] &= !(1 << kh);
    m.hands[1] |= 1 << kh;
    refused(&m.serialize());
    m.hands[0] |= 1 << kh;
    refused(&m.serialize());
    m = s;
    m.dealt[1] |= 1 << kh;
    refused(&m.serialize());
    refused(&text[..text.len() - 3]);
    refused(&format!("{text} extra=1"));
    refused(&format!("{text} turn=0"));
    // The capot made: the last trick's action scored 41 (1 + the 40 capot bonus).
    let tokens: Vec<&str> = CAPOT_PLAY.split_whitespace().collect();
    run(&mut s, &tokens[2..].join(" "));
    let text = s.serialize();
    assert!(s.is_terminal() && text.contains(" rewards=41,0 "), "{text}");
    assert_eq!(State::deserialize(&text).unwrap(), s);
    refused(&with_field(&text, "rewards", "40,0"));
    refused(&with_field(&text, "sources", "40,60,24,40,0,0,0,0,0,0,0,0,0,0"));
}

/// Every state of random deals and matches (both rule sets, both scopes) reads back equal from
/// its text and is its own replay; mutated texts are refused or accepted as states that replay,
/// round-trip and play to the end.
/// Every state of random deals and matches (both rule sets, both scopes) reads back equal from
/// its text; mutated texts are refused or accepted as states that round-trip and play to the
/// end (`deserialize` accepts only what its replay gives back).
#[test]
fn every_state_round_trips_and_mutants_are_refused_or_reachable() {
    let (mut actions, mut mutants, mut accepted) = (0, 0, 0);
    for rules in [Rules::russian(), Rules::rubicon()] {
        for (scope, games) in [(Scope::Deal, 60), (Scope::Partiya, 4)] {
            let r = crate::engine::conformance::check_texts(&config(rules, scope), games, 84)
                .unwrap_or_else(|e| panic!("{e}"));
            (actions, mutants, accepted) = (actions + r.actions, mutants + r.mutants, accepted + r.mutants_accepted);
        }
    }
    assert!(actions > 10_000 && mutants > 2_000 && accepted > 0, "{actions} {mutants} {accepted}");
}

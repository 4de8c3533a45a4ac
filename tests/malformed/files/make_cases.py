"""Writes tests/malformed/formats.toml and the DBF folders and zips under
tests/malformed/files/: `python3 tests/malformed/files/make_cases.py`. The expected
messages are written here by hand, from the formats' documentation (docs/formats.md)."""
import json, sys, zipfile
from datetime import date
from pathlib import Path
from uscf_ratings.formats import dbf, event_json

#: Every member gets this time, so that the zips written are the same at every run.
STAMP = (2024, 6, 1, 0, 0, 0)


def member(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type = zipfile.ZIP_DEFLATED
    return info

ROOT = Path(__file__).resolve().parents[1]
FILES = ROOT / "files"


def main() -> None:  # noqa: C901, PLR0915 - a list of cases
    FILES.mkdir(exist_ok=True)
    cases = []

    def case(name, message, *, text=None, suffix="", file=None, command=("db", "rate", "{file}"), exit=1, note=""):
        cases.append(dict(name=name, command=list(command), exit=exit, message=message, text=text, suffix=suffix, file=file, note=note))

    DB = ("db", "rate", "{file}")
    RATE = ("rate", "{file}")

    # ---- event JSON ----------------------------------------------------------------------
    EV = {"event": {"id": "M1", "name": "M", "start_date": "2024-06-01", "end_date": "2024-06-01"},
          "sections": [{"number": 1, "time_control": "G/60;d5", "players": [
              {"pair": 1, "id": "40000001", "name": "A", "ratings": {"R": {"rating": 1500, "games": 30}}, "results": ["W2"]},
              {"pair": 2, "id": "40000002", "name": "B", "ratings": {"R": {"rating": 1400, "games": 30}}, "results": ["L1"]}]}]}
    def ev(mut):
        d = json.loads(json.dumps(EV)); mut(d); return json.dumps(d, ensure_ascii=False)
    case("json-not-json", ["json-not-json.json", "line 1 column"], text='{"event": ', suffix=".json")
    case("json-rating-as-text", ["json-rating-as-text.json", "sections[0].players[0].ratings.R.rating"],
         text=ev(lambda d: d["sections"][0]["players"][0]["ratings"]["R"].__setitem__("rating", "15¹0")), suffix=".json")
    case("json-result-superscript", ["json-result-superscript.json", "sections[0].players[0].results[0]"],
         text=ev(lambda d: d["sections"][0]["players"][0].__setitem__("results", ["W²"])), suffix=".json", command=RATE)
    case("json-pair-arabic-digit", ["json-pair-arabic-digit.json", "sections[0].players[1].pair"],
         text=ev(lambda d: d["sections"][0]["players"][1].__setitem__("pair", "٢")), suffix=".json")
    case("json-games-negative", ["json-games-negative.json", "section 1, player 2", "R games (N) -3"],
         text=ev(lambda d: d["sections"][0]["players"][1]["ratings"]["R"].__setitem__("games", -3)), suffix=".json")
    case("json-date-other-than-given", ["json-date-other-than-given.json", "start date 2024-06-01", "--date gives 2024-06-02"],
         text=ev(lambda d: None), suffix=".json", command=("rate", "--date", "2024-06-02", "{file}"))
    case("json-systems-other-than-stated", ["json-systems-other-than-stated.json", "section 1", "G/60;d5", "--systems gives B"],
         text=ev(lambda d: None), suffix=".json", command=("rate", "--systems", "B", "{file}"))

    # ---- CSV -----------------------------------------------------------------------------
    CSV = ("# start_date: 2024-06-01\n# time_control: G/60;d5\n"
           "pair,id,name,rating,games,round1\n"
           "1,40000001,A,{r1},{g1},{c1}\n"
           "2,40000002,B,1400,,L1\n")
    def csv(**kw):
        v = dict(r1="1500", g1="30", c1="W2"); v.update(kw); return CSV.format(**v)
    case("csv-superscript-rating", ["csv-superscript-rating.csv", "line 4, column 4 (rating)", "150¹"], text=csv(r1="150¹"), suffix=".csv")
    case("csv-arabic-games", ["csv-arabic-games.csv", "line 4, column 5 (games)", "expected a whole number"], text=csv(g1="٣٠"), suffix=".csv")
    case("csv-fullwidth-opponent", ["csv-fullwidth-opponent.csv", "line 4, column 6 (round1)"], text=csv(c1="W２"), suffix=".csv", command=RATE)
    case("csv-signed-games", ["csv-signed-games.csv", "line 4, column 5 (games)", "'+30'"], text=csv(g1="+30"), suffix=".csv")
    case("csv-bad-result", ["csv-bad-result.csv", "line 4, column 6 (round1)", "'Q2' is not a result"], text=csv(c1="Q2"), suffix=".csv")
    case("csv-opponent-not-in-section", ["csv-opponent-not-in-section.csv", "line 4, column 6 (round1)", "pair 9"], text=csv(c1="W9"), suffix=".csv")
    case("csv-no-date", ["csv-no-date.csv", "start_date", "--date YYYY-MM-DD"], text=csv().replace("# start_date: 2024-06-01\n", ""), suffix=".csv")
    case("csv-pair-twice", ["csv-pair-twice.csv", "line 5, column 1 (pair)", "used twice"], text=csv().replace("\n2,", "\n1,"), suffix=".csv")

    # ---- CSV crosstable JSON -------------------------------------------------------------
    CJ = {"format": "uscf-crosstable", "event": {"id": "M2", "start_date": "2024-06-01"},
          "sections": [{"number": 1, "time_control": "G/60;d5", "players": [
              {"pair": 1, "id": "40000001", "name": "A", "rating": 1500, "games": 30, "results": ["W2"]},
              {"pair": 2, "id": "40000002", "name": "B", "rating": 1400, "results": ["L1"]}]}]}
    def cj(mut):
        d = json.loads(json.dumps(CJ)); mut(d); return json.dumps(d, ensure_ascii=False)
    case("csvjson-superscript-rating", ["csvjson-superscript-rating.json", "sections[0].players[0]", "rating", "15¹0"],
         text=cj(lambda d: d["sections"][0]["players"][0].__setitem__("rating", "15¹0")), suffix=".json")
    case("csvjson-pair-text", ["csvjson-pair-text.json", "sections[0].players[1]", "pair"],
         text=cj(lambda d: d["sections"][0]["players"][1].__setitem__("pair", "2²")), suffix=".json", command=RATE)
    case("csvjson-bad-cell", ["csvjson-bad-cell.json", "sections[0].players[0]", "'Z2' is not a result"],
         text=cj(lambda d: d["sections"][0]["players"][0].__setitem__("results", ["Z2"])), suffix=".json")
    case("csvjson-no-date", ["csvjson-no-date.json", "start_date", "--date YYYY-MM-DD"],
         text=cj(lambda d: d["event"].pop("start_date")), suffix=".json")

    # ---- TRF -----------------------------------------------------------------------------
    def trf(fide="1820", nat="1875", res="1", opp="   2", rank="   1", dates=True, extra=""):
        lines = (["012 Club"] + (["042 2024/06/01"] if dates else []) + ["122 G/60;d5",
            f"001 {rank} w    Adams, Ann                        {fide:>4}                 1990/04/12  1.0    1  {opp} w {res}",
            "001    2 m    Baker, Bob                                                         0.0    2     1 b 0",
            f"USA    1                                        {nat:>4} CA     40000001"] + ([extra] if extra else []))
        return "\n".join(lines) + "\n"
    case("trf-superscript-national-rating", ["trf-superscript-national-rating.trf", "line 6, columns 49-52", "187¹"], text=trf(nat="187¹"), suffix=".trf")
    case("trf-arabic-fide-rating", ["trf-arabic-fide-rating.trf", "line 4, columns 49-52", "FIDE rating"], text=trf(fide="١٨٢٠"), suffix=".trf", command=RATE)
    case("trf-fullwidth-opponent", ["trf-fullwidth-opponent.trf", "line 4", "round 1"], text=trf(opp="   ２"), suffix=".trf")
    case("trf-no-date", ["trf-no-date.trf", "no date", "--date YYYY-MM-DD"], text=trf(dates=False), suffix=".trf")
    case("trf-bad-result-code", ["trf-bad-result-code.trf", "line 4, columns 92-99 (round 1)", "result 'Q'"], text=trf(res="Q"), suffix=".trf")
    case("trf-opponent-without-line", ["trf-opponent-without-line.trf", "line 4, columns 92-99 (round 1)", "opponent 7 has no 001 line"], text=trf(opp="   7"), suffix=".trf")
    case("trf-no-players", ["trf-no-players.trf", "no player records"], text="012 Club\n042 2024/06/01\n", suffix=".trf")
    case("trf-usa-line-unreadable-rank", ["trf-usa-line-unreadable-rank.trf", "line 7, columns 5-8", "USA national record"],
         text=trf(extra="USA   ¹                                        1500 CA     40000002"), suffix=".trf")
    case("trf-national-for-missing-rank", ["trf-national-for-missing-rank.trf", "line 7, columns 5-8", "starting rank 5"],
         text=trf(extra="USA    5                                        1500 CA     40000005"), suffix=".trf", command=RATE)

    # ---- SwissSys ------------------------------------------------------------------------
    SJ = {"Overview": {"Tournament title": "Quad", "Starting date": "2024-06-01"}, "Sections": [
          {"Section name": "Quad", "Type": 3, "Section time control": "G/60;d5", "Players": [
              {"Pair number": 1, "Name": "A", "ID": "40000001", "Rating": 1500, "Results": ["+;2;W;1;0;0;0"]},
              {"Pair number": 2, "Name": "B", "ID": "40000002", "Rating": 1400, "Results": ["-;1;B;1;0;0;0"]}]}]}
    def sj(mut):
        d = json.loads(json.dumps(SJ)); mut(d); return json.dumps(d, ensure_ascii=False)
    P0 = lambda d: d["Sections"][0]["Players"][0]
    case("sjson-no-date", ["sjson-no-date.sjson", "Overview.Starting date", "--date YYYY-MM-DD"], text=sj(lambda d: d["Overview"].pop("Starting date")), suffix=".sjson")
    case("sjson-superscript-opponent", ["sjson-superscript-opponent.sjson", "Sections[0].Players[0].Results[0]", "opponent '²'"],
         text=sj(lambda d: P0(d).__setitem__("Results", ["+;²;W;1;0;0;0"])), suffix=".sjson")
    case("sjson-rating-letters", ["sjson-rating-letters.sjson", "Sections[0].Players[0].Rating", "'15O0'"], text=sj(lambda d: P0(d).__setitem__("Rating", "15O0")), suffix=".sjson", command=RATE)
    case("sjson-rating-arabic", ["sjson-rating-arabic.sjson", "Sections[0].Players[0].Rating"], text=sj(lambda d: P0(d).__setitem__("Rating", "١٥٠٠")), suffix=".sjson")
    case("sjson-pair-text", ["sjson-pair-text.sjson", "Sections[0].Players[0].Pair number"], text=sj(lambda d: P0(d).__setitem__("Pair number", "1")), suffix=".sjson")
    case("sjson-bad-result-letter", ["sjson-bad-result-letter.sjson", "Sections[0].Players[0].Results[0]", "not a SwissSys result"], text=sj(lambda d: P0(d).__setitem__("Results", ["Q;2;W;1;0;0;0"])), suffix=".sjson")

    # ---- WinTD ---------------------------------------------------------------------------
    WT = {"beginDate": "2024-06-01", "sections": [{"title": "Open", "id": 0, "USCFratable": 1, "TC": "G/60;d5", "gamesPerMatch": 1}],
          "players": [{"base": {"name": "A", "id": "40000001", "rating": 1500}, "tnmt": {"sectionID": 0, "status": 0, "pairno": 1, "games": [0]}},
                      {"base": {"name": "B", "id": "40000002", "rating": 1400}, "tnmt": {"sectionID": 0, "status": 0, "pairno": 2, "games": [0]}}],
          "games": [{"p1": 0, "p2": 1, "r1": 1, "r2": 1, "result": 1, "type": 0}]}
    def wt(mut):
        d = json.loads(json.dumps(WT)); mut(d); return json.dumps(d, ensure_ascii=False)
    case("wintd-no-date", ["wintd-no-date.json", "beginDate", "--date YYYY-MM-DD"], text=wt(lambda d: d.pop("beginDate")), suffix=".json")
    case("wintd-rating-text", ["wintd-rating-text.json", "players[0].base.rating", "'1500'"], text=wt(lambda d: d["players"][0]["base"].__setitem__("rating", "1500")), suffix=".json", command=RATE)
    case("wintd-pairno-superscript", ["wintd-pairno-superscript.json", "players[1].tnmt.pairno"], text=wt(lambda d: d["players"][1]["tnmt"].__setitem__("pairno", "2²")), suffix=".json")
    case("wintd-bad-result", ["wintd-bad-result.json", "players[0].tnmt.games[0]", "result 7"], text=wt(lambda d: d["games"][0].__setitem__("result", 7)), suffix=".json")
    case("wintd-rating-too-high", ["wintd-rating-too-high.json", "players[1].base.rating", "1e+300"], text=wt(lambda d: d["players"][1]["base"].__setitem__("rating", 1e300)), suffix=".json")

    # ---- PGN -----------------------------------------------------------------------------
    def pgn(round_="1", wuscf="1500", elo="1600", result="1-0", date_='[Date "2024.06.01"]\n', extra=""):
        return (f'[Event "Club"]\n{date_}[Round "{round_}"]\n[White "A"]\n[Black "B"]\n[Result "{result}"]\n'
                f'[WhiteUSCF "{wuscf}"]\n[BlackUSCF "1400"]\n[WhiteElo "{elo}"]\n[TimeControl "3600+5"]\n{extra}\n{result}\n')
    case("pgn-superscript-round", ["pgn-superscript-round.pgn", "line 3 (Round)", "'1¹'"], text=pgn(round_="1¹"), suffix=".pgn")
    case("pgn-arabic-rating", ["pgn-arabic-rating.pgn", "line 7 (WhiteUSCF)", "not a US Chess rating"], text=pgn(wuscf="١٥٠٠"), suffix=".pgn", command=RATE)
    case("pgn-fullwidth-elo", ["pgn-fullwidth-elo.pgn", "line 9 (WhiteElo)", "not a FIDE rating"], text=pgn(elo="１６００"), suffix=".pgn")
    case("pgn-no-date", ["pgn-no-date.pgn", "Date or EventDate", "--date YYYY-MM-DD"], text=pgn(date_=""), suffix=".pgn")
    case("pgn-bad-result", ["pgn-bad-result.pgn", "line 6 (Result)", "'2-0'"], text=pgn(result="2-0"), suffix=".pgn")
    case("pgn-no-extension-bad-round", ["pgn-no-extension-bad-round", "line 3 (Round)"], text=pgn(round_="x"), suffix="")
    case("pgn-event-tag-first-as-txt", ["pgn-event-tag-first-as-txt.txt", "line 7 (WhiteUSCF)"], text=pgn(wuscf="15OO"), suffix=".txt", command=RATE)

    # ---- DBF: folders and zips (files written here) --------------------------------------
    sample = event_json.read_event(ROOT.parents[1] / "examples" / "sample-event.json")
    files = dbf.report_files(sample)
    def table_with(name, field, value, rec=0):
        issues = []
        t = dbf.read_table(files[name], name, issues)
        fields = [(f.name, f.type, f.length) for f in t.fields.values()]
        rows = [[r[f] for f, _, _ in fields] for _, r in t.records]
        rows[rec][[f for f, _, _ in fields].index(field)] = value
        return dbf.dbase3_bytes(fields, rows, date(2024, 6, 1))
    def folder(name, changes=(), drop=()):
        d = FILES / name
        d.mkdir(exist_ok=True)
        for p in d.iterdir(): p.unlink()
        data = dict(files)
        for t, f, v in changes: data[t] = table_with(t, f, v)
        for t, b in data.items():
            if t not in drop: (d / t).write_bytes(b)
        return data
    def zipped(name, data):
        with zipfile.ZipFile(FILES / name, "w", zipfile.ZIP_DEFLATED) as z:
            for t, b in data.items(): z.writestr(member(t), b)
    folder("dbf-superscript-pair", [("TDEXPORT.DBF", "D_PAIR_NUM", "1¹")])
    case("dbf-superscript-pair", ["dbf-superscript-pair", "TDEXPORT.DBF record 1 field D_PAIR_NUM", "'1¹'"], file="dbf-superscript-pair")
    folder("dbf-rating-letters", [("TDEXPORT.DBF", "D_RATING", "18O0")])
    case("dbf-rating-letters", ["dbf-rating-letters", "TDEXPORT.DBF record 1 field D_RATING", "'18O0'"], file="dbf-rating-letters", command=RATE)
    folder("dbf-missing-sections-file", drop=("TSEXPORT.DBF",))
    case("dbf-missing-sections-file", ["dbf-missing-sections-file", "TSEXPORT.DBF", "missing"], file="dbf-missing-sections-file")
    folder("dbf-bad-date", [("THEXPORT.DBF", "H_BEG_DATE", "20241399")])
    case("dbf-bad-date", ["dbf-bad-date", "THEXPORT.DBF record 1 field H_BEG_DATE", "not a date"], file="dbf-bad-date")
    folder("dbf-bad-cell", [("TDEXPORT.DBF", "D_RND01", "Q5")])
    case("dbf-bad-cell", ["dbf-bad-cell", "TDEXPORT.DBF record 1 field D_RND01", "'Q5'"], file="dbf-bad-cell")
    zipped("dbf-zip-superscript-section.zip", {**files, "TDEXPORT.DBF": table_with("TDEXPORT.DBF", "D_SEC_NUM", "²")})
    case("dbf-zip-superscript-section", ["dbf-zip-superscript-section.zip", "TDEXPORT.DBF record 1 field D_SEC_NUM", "'²'"], file="dbf-zip-superscript-section.zip")
    with zipfile.ZipFile(FILES / "dbf-zip-bomb.zip", "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open(member("TDEXPORT.DBF"), "w") as m:
            for _ in range(70): m.write(b"\0" * (1 << 20))
        z.writestr(member("THEXPORT.DBF"), files["THEXPORT.DBF"]); z.writestr(member("TSEXPORT.DBF"), files["TSEXPORT.DBF"])
    case("dbf-zip-bomb", ["dbf-zip-bomb.zip", "zip: unpacks to", "the cap is 10,485,760 bytes"], file="dbf-zip-bomb.zip")
    with zipfile.ZipFile(FILES / "dbf-zip-many-members.zip", "w") as z:
        for n in range(101): z.writestr(member(f"x/{n}.txt"), b"")
    case("dbf-zip-many-members", ["dbf-zip-many-members.zip", "zip: holds 101 members", "the cap is 100"], file="dbf-zip-many-members.zip", command=RATE)
    (FILES / "dbf-zip-truncated.zip").write_bytes((FILES / "dbf-zip-superscript-section.zip").read_bytes()[:200])
    case("dbf-zip-truncated", ["dbf-zip-truncated.zip", "not a readable zip file"], file="dbf-zip-truncated.zip")

    def tq(s):
        return json.dumps(s, ensure_ascii=True)
    out = ["# Malformed inputs of the file readers (tests/malformed/README.md): every format, as",
           "# `uscf db rate` (the harness adds --db and checks the office is unchanged) and as",
           "# `uscf rate`. The DBF folders and zips under files/ are written by",
           "# tests/malformed/files/make_cases.py (which writes this file too). Each message names the file and the place.", ""]
    for c in cases:
        out.append("[[case]]")
        out.append(f"name = {tq(c['name'])}")
        out.append("command = [" + ", ".join(tq(a) for a in c["command"]) + "]")
        if c["file"]: out.append(f"file = {tq(c['file'])}")
        else:
            out.append(f"text = {tq(c['text'])}")
            out.append(f"suffix = {tq(c['suffix'])}")
        out.append(f"exit = {c['exit']}")
        out.append("message = [" + ", ".join(tq(m) for m in c["message"]) + "]")
        out.append("")
    (ROOT / "formats.toml").write_text("\n".join(out), encoding="utf-8")
    print(len(cases))



if __name__ == "__main__":
    main()

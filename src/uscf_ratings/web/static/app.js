// The estimator's form, and a crosstable's search. The form: add and remove game rows,
// and show only the fields that apply:
// an element with data-show="name=value" (or "name!=value") is shown only while the
// form's field `name` (a select, or a group of radio buttons) has (or has not) that value.
// Without this script the form still works: it shows every field and a few empty game
// rows, and the server ignores the empty rows and the fields that do not apply.
"use strict";

function setUp() {
  const form = document.getElementById("estimate-form");
  if (form) {
    const show = setUpShowing(form);
    setUpGames(form, show);
  }
  setUpFileLimit();
  setUpScrolling();
  setUpFinding();
}

function setUpShowing(form) {
  const show = () => {
    form.querySelectorAll("[data-show]").forEach((part) => {
      const [, name, sign, value] = /^(\w+)(!?=)(.*)$/.exec(part.dataset.show);
      const field = form.elements[name];
      const matches = field !== undefined && field.value === value;
      part.hidden = sign === "=" ? !matches : matches;
    });
  };
  form.addEventListener("change", show);
  show();
  return show;
}

function setUpGames(form, show) {
  const body = form.querySelector("#games tbody");
  const add = form.querySelector("#add-game");
  const max = Number(add.dataset.max || 100);
  add.addEventListener("click", () => {
    if (body.rows.length >= max) return;
    const row = body.rows[body.rows.length - 1].cloneNode(true);
    row.querySelectorAll("input").forEach((input) => { input.value = ""; });
    row.querySelector("select").selectedIndex = 0;
    body.appendChild(row);
    show();
    row.querySelector("input").focus();
  });
  body.addEventListener("click", (event) => {
    const button = event.target.closest(".remove-game");
    if (!button) return;
    const row = button.closest("tr");
    if (body.rows.length > 1) {
      row.remove();
    } else {
      row.querySelectorAll("input").forEach((input) => { input.value = ""; });
    }
  });
}

function setUpFileLimit() {
  const input = document.querySelector("input[type=file][data-max-bytes]");
  const note = document.getElementById("file-size-note");
  if (!input || !note) return;
  const max = Number(input.dataset.maxBytes);
  const original = note.textContent;
  input.addEventListener("change", () => {
    const file = input.files[0];
    const tooLarge = file && file.size > max;
    note.textContent = tooLarge
      ? `${file.name} has ${file.size.toLocaleString()} bytes: the server takes at most ${max.toLocaleString()}.`
      : original;
    note.classList.toggle("warning", Boolean(tooLarge));
  });
}

// A wide table scrolls sideways in its own box (.scroll). While the box's content is
// wider than the box, the box takes the keyboard's focus, so that the arrow keys can
// scroll it; a box that fits is no stop for the Tab key. Checked again when the window's
// width changes and when a <details> opens (a table in it had no width while closed).
function setUpScrolling() {
  const check = () => {
    document.querySelectorAll(".scroll").forEach((box) => {
      if (box.scrollWidth > box.clientWidth) {
        box.tabIndex = 0;
      } else {
        box.removeAttribute("tabindex");
      }
    });
  };
  window.addEventListener("resize", check);
  document.addEventListener("toggle", check, true);  // toggle does not bubble
  check();
}

// A crosstable's search (shown only where this script runs): the players whose name or
// member id holds what is typed stay, the others are hidden; the count is said aloud.
function setUpFinding() {
  document.querySelectorAll("input[data-find]").forEach((input) => {
    const section = document.getElementById(input.dataset.find);
    const said = document.querySelector(`[data-found="${input.dataset.find}"]`);
    // a player's name (the first name cell) and member id (his row's anchor, s1-ID)
    const players = [...section.querySelectorAll("tbody.player")];
    const keys = players.map((player) => {
      const anchor = player.querySelector(".anchor");
      const id = anchor ? anchor.id.slice(anchor.id.indexOf("-") + 1) : "";
      return `${player.querySelector("td.name").textContent} ${id}`.toLowerCase();
    });
    input.closest(".find").hidden = false;
    input.addEventListener("input", () => {
      const wanted = input.value.trim().toLowerCase();
      let shown = 0;
      players.forEach((player, at) => {
        const keep = !wanted || keys[at].includes(wanted);
        player.hidden = !keep;
        shown += keep ? 1 : 0;
      });
      said.textContent = wanted ? `${shown} of ${players.length} players` : "";
    });
  });
}

document.addEventListener("DOMContentLoaded", setUp);

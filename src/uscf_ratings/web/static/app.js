// The estimator's form: add and remove game rows, and show only the fields that apply
// (rated or unrated). Without this script the form still works: it shows every field and
// a few empty game rows, and the server ignores the empty ones.
"use strict";

function setUp() {
  const form = document.getElementById("estimate-form");
  if (form) {
    setUpGames(form);
    setUpStatus(form);
  }
  setUpFileLimit();
}

function setUpGames(form) {
  const body = form.querySelector("#games tbody");
  const add = form.querySelector("#add-game");
  const max = Number(add.dataset.max || 100);
  add.addEventListener("click", () => {
    if (body.rows.length >= max) return;
    const row = body.rows[body.rows.length - 1].cloneNode(true);
    row.querySelectorAll("input").forEach((input) => { input.value = ""; });
    row.querySelector("select").selectedIndex = 0;
    body.appendChild(row);
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

function setUpStatus(form) {
  const radios = form.querySelectorAll("input[name=status]");
  const show = () => {
    const status = form.querySelector("input[name=status]:checked").value;
    form.querySelectorAll("[data-when]").forEach((part) => {
      part.hidden = part.dataset.when !== status;
    });
  };
  radios.forEach((radio) => radio.addEventListener("change", show));
  show();
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

document.addEventListener("DOMContentLoaded", setUp);

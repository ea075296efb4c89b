// tokengen serve: send the form to /api/render on every change, show the pages, the check and
// the CLI's messages; re-render when the catalogue changes on disk (long poll on /api/changes).
"use strict";
(function () {
  const form = document.getElementById("options");
  const sheet = document.getElementById("sheet");
  const status = document.getElementById("status");
  const errorBox = document.getElementById("error");
  const log = document.getElementById("log");
  const downloadError = document.getElementById("download-error");
  const downloadStatus = document.getElementById("download-status");
  let generation = -1;
  let pending = null;
  let retried = false;

  function query() {
    const params = new URLSearchParams();
    for (const el of form.elements) {
      if (!el.name || el.disabled) continue;
      if (el.type === "checkbox") { if (el.checked) params.append(el.name, "on"); }
      else if (el.value.trim() !== "") params.append(el.name, el.value.trim());
    }
    return params.toString();
  }

  function count(n, noun) {
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  }

  function text(tag, content, cls) {
    const el = document.createElement(tag);
    el.textContent = content;
    if (cls) el.className = cls;
    return el;
  }

  function backsControls() {
    const none = form.elements.backs.value === "";
    form.elements.flip.disabled = none;
  }

  function showCheck(check, buildError) {
    const verdict = document.getElementById("verdict");
    const findings = document.getElementById("findings");
    const odds = document.getElementById("odds");
    findings.replaceChildren(); odds.replaceChildren();
    if (!check || check.error) {
      verdict.textContent = !check ? "No check report." : check.error === buildError ? "The check cannot run either: see the error above." : check.error;
      return;
    }
    const c = check.counts;
    // variants belong to the Meatshield rules: the report has them only for a game played by those
    const variants = check.variants ? `; variants in play: ${check.variants.join(", ") || "none"}` : "";
    verdict.textContent = (check.playable ? "Playable" : "NOT playable") +
      ` (${count(c.error, "error")}, ${count(c.warning, "warning")}, ${count(c.info, "note")})${variants}`;
    for (const f of check.findings) {
      if (f.code === "draw-odds") { odds.append(oddsTable(f)); continue; }
      const where = f.line ? `${f.file || check.catalogue}:${f.line}: ` : "";
      const field = f.field && f.line ? `${f.field}: ` : "";
      // the catalogue's own rules and odds read as the command line writes them: cards.yaml:14: rules[2]: …
      const own = (f.code === "rule" || f.code === "odds") && f.line && f.field;
      findings.append(text("li", own ? `${where}${field}${f.message}` : `${where}${f.severity} ${f.code}: ${field}${f.message}`, f.severity));
    }
  }

  function oddsTable(f) {
    const table = document.createElement("table");
    table.append(text("caption", f.message));
    const head = document.createElement("tr");
    head.append(text("th", "targeting"), text("th", "absorbers"));
    for (const n of f.data.draw_sizes) head.append(text("th", `draw ${n}`));
    table.append(head);
    for (const row of f.data.rows) {
      const tr = document.createElement("tr");
      tr.append(text("td", row.targeting), text("td", `${row.absorbers} of ${f.data.bag}`));
      for (const p of row.p) {
        const [a, b] = p.split("/").map(Number);
        tr.append(text("td", `${(100 * a / (b || 1)).toFixed(1)}%`));
      }
      table.append(tr);
    }
    return table;
  }

  // the shop download: the profile, and for a Tabletop Simulator save the URL its images go to
  function shopUrl() {
    const params = new URLSearchParams({ profile: form.elements.profile.value });
    const url = form.elements.image_url.value.trim();
    if (form.elements.profile.value === "tts" && url) params.append("image_url", url);
    return `/download/shop?${params}`;
  }

  function ttsControls() {
    const tts = form.elements.profile.value === "tts";
    for (const id of ["image_url", "image-url-label", "image-url-help"]) document.getElementById(id).hidden = !tts;
    form.elements.image_url.disabled = !tts;
  }

  // the download URLs for the options the form shows now (not those of the last render)
  function downloadUrls() {
    const q = query();
    const align = new URLSearchParams();
    for (const name of ["page", "landscape", "flip", "back_offset", "printer_scale"]) {
      const el = form.elements[name];
      if (el.type === "checkbox") { if (el.checked) align.append(name, "on"); }
      else if (el.value.trim()) align.append(name, el.value.trim());
    }
    return {
      "download-home": `/download/home?${q}`,
      "download-backs": `/download/backs?${q}`,
      "download-shop": shopUrl(),
      "download-align": `/download/align?${align}`,
    };
  }

  function setHrefs() {
    for (const [id, url] of Object.entries(downloadUrls())) document.getElementById(id).href = url;
  }

  function setLinks(data) {
    setHrefs();
    document.getElementById("download-home").setAttribute("aria-disabled", String(!!data.error));
    document.getElementById("download-backs").hidden = !data.backs;
  }

  // a download: fetched for the form's current options (the server builds them if a render is
  // still running), saved under the server's file name; a refusal shows its lines on the page
  async function download(event) {
    event.preventDefault();
    const link = event.currentTarget;
    const url = downloadUrls()[link.id];
    downloadError.hidden = true;
    downloadError.replaceChildren();
    downloadStatus.textContent = `Preparing ${link.textContent}…`;
    let response;
    try {
      response = await fetch(url);
    } catch (err) {
      downloadStatus.textContent = "";
      showDownloadError([`${link.textContent}: the server did not answer: is tokengen serve still running?`]);
      return;
    }
    if (!response.ok) {
      const lines = (await response.text()).replace(/\n+$/, "").split("\n");
      downloadStatus.textContent = "";
      showDownloadError([`${link.textContent} refused:`, ...lines]);
      return;
    }
    const blob = await response.blob();
    const disposition = response.headers.get("content-disposition") || "";
    const match = /filename="([^"]+)"/.exec(disposition);
    const save = document.createElement("a");
    save.href = URL.createObjectURL(blob);
    save.download = match ? match[1] : "download";
    save.hidden = true;
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(save.href), 60000);
    downloadStatus.textContent = `Saved ${save.download}.`;
  }

  function showDownloadError(lines) {
    downloadError.replaceChildren(...lines.map((line, i) => text(i === 0 ? "p" : "pre", line)));
    downloadError.hidden = false;
  }

  async function render() {
    backsControls();
    ttsControls();
    const q = query();
    if (pending) pending.abort();
    const controller = new AbortController();
    pending = controller;
    sheet.setAttribute("aria-busy", "true");
    status.textContent = "Rendering…";
    setHrefs();  // a download clicked now gets these options' file
    let data;
    try {
      const response = await fetch(`/api/render?${q}`, { signal: controller.signal });
      data = await response.json();
    } catch (err) {
      if (err.name === "AbortError") return;
      status.textContent = "The server did not answer: is tokengen serve still running?";
      return;
    }
    if (pending !== controller) return;
    pending = null;
    sheet.setAttribute("aria-busy", "false");
    log.replaceChildren(...(data.log || []).map((line) => text("li", line)));
    document.getElementById("command").textContent = (data.args || []).join(" ");
    if (data.error) {
      errorBox.textContent = data.error;
      errorBox.hidden = false;
      sheet.replaceChildren();
      status.textContent = "Error: the sheet cannot be built with this input.";
    } else {
      errorBox.hidden = true;
      errorBox.textContent = "";
      const figures = data.pages.map((url, i) => {
        const fig = document.createElement("figure");
        const img = document.createElement("img");
        img.alt = `Page ${i + 1} of ${data.page_count}`;
        img.addEventListener("error", () => {  // dropped from the server's cache by other renders: ask again
          if (sheet.dataset.key === data.key && !retried) { retried = true; render(); }
        }, { once: true });
        img.src = url;
        fig.append(img, text("figcaption", `Page ${i + 1} of ${data.page_count}`));
        return fig;
      });
      sheet.replaceChildren(...figures);
      status.textContent = data.page_count > data.pages.length
        ? `The first ${data.pages.length} of ${data.page_count} pages, rendered at 100 DPI.`
        : `${count(data.page_count, "page")} rendered at 100 DPI.`;
    }
    sheet.dataset.generation = String(data.generation);
    sheet.dataset.key = data.key || "";
    if (data.generation !== undefined) generation = data.generation;
    setLinks(data);
    showCheck(data.check, data.error);
  }

  async function watch() {
    for (;;) {
      try {
        const response = await fetch(`/api/changes?since=${generation}`);
        const data = await response.json();
        if (data.generation !== generation) { generation = data.generation; await render(); }
      } catch (err) {
        status.textContent = "Lost the server; retrying…";
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
  }

  for (const id of ["download-home", "download-backs", "download-shop", "download-align"]) {
    document.getElementById(id).addEventListener("click", download);
  }
  form.addEventListener("change", () => { retried = false; render(); });
  form.addEventListener("submit", (event) => { event.preventDefault(); render(); });
  render().then(watch);
})();

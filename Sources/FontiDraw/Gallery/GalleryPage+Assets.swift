// The gallery page's own style sheet and script, inlined in every index.html. Written for this
// tool, no library: the page must work from file:// and make no request outside its folder.
// The page's Content-Security-Policy allows exactly these two texts (by their SHA-256).

extension GalleryPage {
  /// The style sheet: the tool's ink (dark) and cream (light) themes, following the reader's
  /// `prefers-color-scheme`, with the specimens' colours (`Palette`).
  static let styleSheet = #"""
    :root {
      color-scheme: light dark;
      --bg: #F3EBDD; --fg: #0D0D0D; --accent: #B8740A; --surface: #FBF7EF;
      --line: rgba(13, 13, 13, .16); --muted: rgba(13, 13, 13, .64); --shade: rgba(13, 13, 13, .72);
      --sans: system-ui, -apple-system, "Segoe UI", Roboto, Inter, Cantarell, "DejaVu Sans", sans-serif;
      --serif: "EB Garamond", "Linux Libertine O", "TeX Gyre Pagella", Georgia, "DejaVu Serif", serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #0D0D0D; --fg: #F3EBDD; --accent: #F0A830; --surface: #181715;
        --line: rgba(243, 235, 221, .15); --muted: rgba(243, 235, 221, .64);
      }
    }
    * { box-sizing: border-box; }
    [hidden] { display: none !important; }
    html { background: var(--bg); color: var(--fg); }
    html:has(dialog[open]) { overflow: hidden; }
    body { margin: 0; font: 15px/1.45 var(--sans); }
    a { color: inherit; }
    :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
    .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
    .kicker { margin: 0 0 6px; color: var(--accent); font-size: 11px; font-weight: 600; letter-spacing: .16em; text-transform: uppercase; }
    .top { display: flex; flex-wrap: wrap; gap: 16px 40px; align-items: flex-end; justify-content: space-between; padding: 36px 40px 22px; }
    .top h1 { margin: 0; font: 400 clamp(30px, 4vw, 46px)/1.08 var(--serif); letter-spacing: -.01em; }
    .sub { margin: 8px 0 0; color: var(--muted); }
    .docs { display: flex; flex-wrap: wrap; gap: 10px; margin: 0; padding: 0; list-style: none; }
    .docs a { display: block; padding: 9px 14px; border: 1px solid var(--line); border-radius: 10px; text-decoration: none; background: var(--surface); }
    .docs a:hover { border-color: var(--accent); }
    .docs b { display: block; font-weight: 600; }
    .docs span { color: var(--muted); font-size: 13px; }
    .docs summary { display: block; padding: 9px 14px; border: 1px solid var(--line); border-radius: 10px; background: var(--surface); cursor: pointer; list-style: none; }
    .docs summary::-webkit-details-marker { display: none; }
    .docs summary:hover, .docs details[open] summary { border-color: var(--accent); }
    .docs .sheets { position: relative; }
    .docs .sheets ul { position: absolute; right: 0; z-index: 5; width: max-content; max-width: min(90vw, 420px); margin: 6px 0 0; padding: 8px 14px; max-height: 50vh; overflow: auto; list-style: none; border: 1px solid var(--line); border-radius: 10px; background: var(--surface); box-shadow: 0 8px 24px var(--shade); }
    .docs .sheets li { margin: 3px 0; overflow-wrap: anywhere; }
    .docs .sheets li a { display: inline; padding: 0; border: 0; background: none; text-decoration: underline; }
    .docs .sheets li span { color: inherit; font-size: inherit; }
    .bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: center; padding: 12px 40px; background: var(--bg); border-block: 1px solid var(--line); }
    .bar input[type=search], .bar select { font: inherit; color: inherit; background: var(--surface); border: 1px solid var(--line); border-radius: 999px; padding: 7px 14px; }
    .bar input[type=search] { width: min(260px, 100%); }
    .bar select { max-width: 190px; }
    .filters { display: flex; flex-wrap: wrap; gap: 8px; margin: 0; padding: 0; border: 0; }
    .chip { position: relative; display: inline-flex; gap: 6px; align-items: center; padding: 6px 12px; border: 1px solid var(--line); border-radius: 999px; cursor: pointer; user-select: none; }
    .chip input { position: absolute; opacity: 0; inset: 0; margin: 0; cursor: pointer; }
    .chip:has(input:checked) { background: var(--fg); color: var(--bg); border-color: var(--fg); }
    .chip:has(input:focus-visible) { outline: 3px solid var(--accent); outline-offset: 2px; }
    .chip .n { color: var(--muted); font-size: 12px; }
    .chip:has(input:checked) .n { color: inherit; opacity: .7; }
    .count { margin-left: auto; color: var(--muted); font-variant-numeric: tabular-nums; }
    .bar button, .none button { font: inherit; color: var(--accent); background: none; border: 0; padding: 4px 6px; cursor: pointer; text-decoration: underline; }
    main { padding: 24px 40px 64px; }
    .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(210px, 1fr)); gap: 22px 20px; margin: 0; padding: 0; list-style: none; }
    .card { position: relative; display: flex; flex-direction: column; padding-bottom: 12px; background: var(--surface); border: 1px solid var(--line); border-radius: 12px; overflow: hidden; content-visibility: auto; contain-intrinsic-size: auto 330px; }
    .card:hover { border-color: var(--accent); }
    .card:has(a:focus-visible) { outline: 3px solid var(--accent); outline-offset: 2px; }
    .card img, .card .ph { display: block; width: 100%; height: auto; aspect-ratio: 1; object-fit: cover; background: #0D0D0D; }
    .card .ph { display: grid; place-items: center; padding: 16px; color: #F3EBDD; font-size: 13px; text-align: center; }
    .card h2 { margin: 10px 12px 0; font-size: 15px; font-weight: 600; line-height: 1.3; overflow-wrap: anywhere; }
    .card h2 a { text-decoration: none; }
    .card h2 a:focus-visible { outline: none; }
    .card h2 a::after { content: ""; position: absolute; inset: 0; }
    .meta { margin: 2px 12px 0; color: var(--muted); font-size: 13px; }
    .tags { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 12px 0; padding: 0; list-style: none; font-size: 12px; }
    .tags:empty { display: none; }
    .tag { max-width: 100%; padding: 1px 8px; border-radius: 999px; border: 1px solid var(--line); overflow-wrap: anywhere; }
    .tag.warn, .tag.fail { border-color: var(--accent); color: var(--accent); font-weight: 600; }
    .tag.saved, .tag.custom { color: var(--accent); }
    .tag.warn::before { content: "⚠ " / ""; }
    .tag.fail::before { content: "✕ " / ""; }
    .tag.saved::before { content: "♥ " / ""; }
    .tag.custom::before { content: "● " / ""; }
    .tag.note { color: var(--muted); }
    .none { padding: 48px 0; text-align: center; color: var(--muted); }
    dialog { width: min(96vw, 1160px); max-height: 94vh; padding: 0; color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 14px; }
    dialog::backdrop { background: var(--shade); }
    .v-head { display: flex; gap: 16px; align-items: flex-start; justify-content: space-between; padding: 18px 22px 12px; }
    .v-head h2 { margin: 0; font: 400 28px/1.15 var(--serif); overflow-wrap: anywhere; }
    .v-head p { margin: 4px 0 0; color: var(--muted); }
    .v-nav { display: flex; gap: 6px; flex: none; }
    .v-nav button { min-width: 40px; height: 40px; font: inherit; font-size: 18px; color: inherit; background: var(--surface); border: 1px solid var(--line); border-radius: 10px; cursor: pointer; }
    .v-nav button:hover { border-color: var(--accent); }
    .v-body { display: grid; grid-template-columns: minmax(0, 1fr) 300px; gap: 22px; padding: 0 22px 22px; }
    .v-img { display: block; }
    .v-img img { display: block; width: min(100%, calc(94vh - 128px)); height: auto; aspect-ratio: 1; margin: 0 auto; object-fit: contain; background: #0D0D0D; border: 1px solid var(--line); border-radius: 8px; }
    .v-side { max-height: calc(94vh - 128px); overflow: auto; font-size: 14px; }
    .v-side section { margin-bottom: 18px; }
    .v-side ul { margin: 0; padding: 0; list-style: none; }
    .v-side p { margin: 0; }
    .v-side p.kicker { margin-bottom: 4px; }
    .v-side li { margin: 3px 0; overflow-wrap: anywhere; }
    .v-side .tags { margin: 0 0 16px; }
    @media (max-width: 760px) {
      .top, .bar, main { padding-inline: 16px; }
      .grid { grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 14px; }
      .v-body { grid-template-columns: 1fr; }
      .v-side, .v-img img { max-height: none; }
      .docs .sheets ul { right: auto; left: 0; }
    }
    @media (prefers-reduced-motion: no-preference) {
      .card { transition: border-color .12s; }
    }
    """#

  /// The script: search, filters and the URL state (`GalleryState` is its specification), the
  /// specimen dialog. Reads the page's JSON block; builds elements with `textContent` only.
  static let script = #"""
    (() => {
      'use strict';
      const $ = (id) => document.getElementById(id);
      const data = JSON.parse($('g-data').textContent);
      const fams = data.families;
      const grid = $('g-grid');
      const cards = Array.from(grid.children);
      const links = cards.map((c) => c.querySelector('h2 a'));
      const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      const titles = cards.map((c) => c.querySelector('h2').textContent);
      const names = titles.map(fold);
      const flags = cards.map((c) => c.dataset.f || '');
      const langs = data.languages.map((l) => l[0]);
      const keys = ['saved', 'custom', 'variable', 'warnings'];
      const letter = { saved: 's', custom: 'c', variable: 'v', warnings: 'w' };
      const q = $('g-q'), lang = $('g-lang'), count = $('g-count'), none = $('g-none');
      const clear = $('g-clear'), dlg = $('g-viewer');
      const boxes = {};
      for (const k of keys) boxes[k] = $('g-' + k);
      const noun = cards.length === 1 ? ' family' : ' families';

      function read() {
        const p = new URLSearchParams(location.search);
        const s = { q: p.get('q') || '', lang: p.get('lang') || '' };
        for (const k of keys) s[k] = p.get(k) === '1';
        if (!langs.includes(s.lang)) s.lang = '';
        return s;
      }
      function search(s) {
        const p = new URLSearchParams();
        if (s.q.trim()) p.set('q', s.q);
        for (const k of keys) if (s[k]) p.set(k, '1');
        if (s.lang) p.set('lang', s.lang);
        const t = p.toString();
        return t ? '?' + t : '';
      }
      let state = read();
      let open = -1;

      function sync() {
        const hash = open >= 0 ? '#' + new URLSearchParams({ family: fams[open].s }) : '';
        grid.dataset.state = search(state) + hash;
        try {
          history.replaceState(null, '', location.pathname + search(state) + hash);
        } catch (e) {
          /* Some browsers refuse to change the URL of a local file; the page works the same. */
        }
      }
      function hasLang(i, bit) {
        const digit = parseInt((fams[i].l || '')[bit >> 2] || '0', 16);
        return ((digit >> (bit & 3)) & 1) === 1;
      }
      function apply() {
        const terms = fold(state.q).split(/\s+/).filter(Boolean);
        const bit = state.lang ? langs.indexOf(state.lang) : -1;
        let shown = 0;
        for (let i = 0; i < cards.length; i++) {
          let ok = keys.every((k) => !state[k] || flags[i].includes(letter[k]));
          if (ok && terms.length) ok = terms.every((t) => names[i].includes(t));
          if (ok && bit >= 0) ok = hasLang(i, bit);
          if (cards[i].hidden === ok) cards[i].hidden = !ok;
          if (ok) shown++;
        }
        count.textContent = shown + ' of ' + cards.length + noun;
        none.hidden = shown > 0;
        clear.hidden = !search(state);
        sync();
      }
      function show(controls) {
        q.value = state.q;
        for (const k of keys) boxes[k].checked = state[k];
        if (lang) lang.value = state.lang;
        if (controls) {
          /* Also as attributes: what the page was opened with, visible in the DOM. */
          q.defaultValue = state.q;
          for (const k of keys) boxes[k].defaultChecked = state[k];
          if (lang) for (const o of lang.options) o.defaultSelected = o.value === state.lang;
        }
      }
      let frame = 0;
      q.addEventListener('input', () => {
        state.q = q.value;
        if (!frame) frame = requestAnimationFrame(() => { frame = 0; apply(); });
      });
      for (const k of keys) {
        boxes[k].addEventListener('change', () => { state[k] = boxes[k].checked; apply(); });
      }
      if (lang) lang.addEventListener('change', () => { state.lang = lang.value; apply(); });
      function reset() {
        state = { q: '', lang: '' };
        for (const k of keys) state[k] = false;
        show(false);
        apply();
        q.focus();
      }
      clear.addEventListener('click', reset);
      $('g-reset').addEventListener('click', reset);
      document.addEventListener('keydown', (e) => {
        const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
        if (e.key === '/' && !typing && !dlg.open) { e.preventDefault(); q.focus(); }
        if (dlg.open && !typing && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
          e.preventDefault();
          step(e.key === 'ArrowLeft' ? -1 : 1);
        }
      });

      function el(tag, text, cls) {
        const e = document.createElement(tag);
        if (text !== undefined) e.textContent = text;
        if (cls) e.className = cls;
        return e;
      }
      function link(href, text) {
        const a = el('a', text);
        a.href = href;
        return a;
      }
      function section(side, title, items) {
        if (!items.length) return;
        const s = el('section');
        s.append(el('p', title, 'kicker'));
        const ul = el('ul');
        for (const item of items) {
          const li = el('li');
          li.append(item);
          ul.append(li);
        }
        s.append(ul);
        side.append(s);
      }
      function paragraph(side, title, text) {
        if (!text) return;
        const s = el('section');
        s.append(el('p', title, 'kicker'), el('p', text));
        side.append(s);
      }
      const number = (v) => String(Math.round(v * 100) / 100);
      function view(i) {
        const f = fams[i];
        open = i;
        $('g-v-name').textContent = titles[i];
        const styles = (f.st || []).length;
        const meta = [styles + (styles === 1 ? ' face' : ' faces')];
        for (const a of f.a || []) meta.push(a[0] + ' ' + number(a[1]) + '–' + number(a[2]));
        $('g-v-meta').textContent = meta.join(' · ');
        const img = $('g-v-img');
        img.src = f.p;
        img.alt = 'Specimen of ' + titles[i];
        $('g-v-link').href = f.p;
        const side = $('g-v-side');
        side.replaceChildren();
        const tags = cards[i].querySelector('.tags');
        if (tags) side.append(tags.cloneNode(true));
        paragraph(side, 'Faces · ' + styles, (f.st || []).join(', '));
        section(side, 'Warnings', (f.e ? [f.e] : []).concat(f.w || []));
        section(side, 'In the catalogues', (f.c || []).flatMap((c) => {
          const cat = data.catalogues[c[0]];
          const pages = [link(cat[0] + '#page=' + c[1], cat[1] + ', page ' + c[1])];
          if (c.length > 2) {
            pages.push(link(cat[0] + '#page=' + c[2], cat[1] + ', every face: page ' + c[2]));
          }
          return pages;
        }));
        section(side, 'Pairing sheets', (f.r || []).map((r) =>
          link(r[0], 'with ' + r[1] + (r[2] === 'heading' ? ' as body' : ' as heading'))));
        const spoken = [];
        for (let b = 0; b < langs.length; b++) if (hasLang(i, b)) spoken.push(data.languages[b][1]);
        if (spoken.length) paragraph(side, 'Languages · ' + spoken.length, spoken.join(', '));
        section(side, 'File', [link(f.p, 'Full-size PNG')]);
        if (!dlg.open) dlg.showModal();
        sync();
      }
      function step(d) {
        for (let j = open + d; j >= 0 && j < cards.length; j += d) {
          if (!cards[j].hidden && fams[j].p) return view(j);
        }
      }
      $('g-prev').addEventListener('click', () => step(-1));
      $('g-next').addEventListener('click', () => step(1));
      $('g-close').addEventListener('click', () => dlg.close());
      dlg.addEventListener('click', (e) => { if (e.target === dlg) dlg.close(); });
      dlg.addEventListener('close', () => {
        const i = open;
        open = -1;
        sync();
        if (i >= 0 && links[i]) links[i].focus();
      });
      grid.addEventListener('click', (e) => {
        const a = e.target.closest('a');
        if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        const i = links.indexOf(a);
        if (i < 0 || !fams[i].p) return;
        e.preventDefault();
        view(i);
      });
      const family = () => new URLSearchParams(location.hash.slice(1)).get('family');
      function openFamily(slug) {
        const i = slug ? fams.findIndex((f) => f.s === slug) : -1;
        if (i >= 0 && fams[i].p) view(i);
        else if (dlg.open) dlg.close();
      }
      window.addEventListener('hashchange', () => openFamily(family()));

      const initial = family();
      $('g-bar').hidden = false;
      show(true);
      apply();
      openFamily(initial);
    })();
    """#
}

(() => {
  'use strict';
  const $ = (id) => document.getElementById(id);
  const body = document.body;
  const params = new URLSearchParams(location.search);
  const token = params.get('token') || '';
  const client = (() => {
    const bytes = new Uint8Array(9);
    crypto.getRandomValues(bytes);
    return 'p' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  })();
  const filters = ['all', 'saved', 'custom', 'variable', 'warnings'];
  const debounce = 12;
  const fold = (s) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const number = (v) => String(Math.round(v * 100) / 100);
  const plural = (n, one, many) => n + ' ' + (n === 1 ? one : many);
  const langPattern = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

  const ui = {
    text: $('s-text'), size: $('s-size'), sizeOut: $('s-size-out'), bold: $('s-bold'),
    italic: $('s-italic'), lang: $('s-lang'), axes: $('s-axes'), features: $('s-features'),
    q: $('s-q'), count: $('s-count'), grid: $('s-grid'), none: $('s-none'),
    noneText: $('s-none-text'), dlg: $('s-viewer'), toast: $('s-toast'),
    errors: $('s-errors'), errorsList: $('s-errors-list'), title: $('s-title'), sub: $('s-sub'),
    live: $('s-live'), liveText: $('s-live-text'), browse: $('s-view-browse'),
    savedView: $('s-view-saved'), savedCount: $('s-saved-count'), viewTitle: $('s-view-title')
  };

  const api = { ready: false, cardsLoaded: 0, lastDrawn: {}, seq: 0, client: client, generation: -1 };
  window.fontiServe = api;

  /* The view's state: what the URL holds. */
  const view = {
    text: params.get('text') || '',
    size: parseInt(params.get('size') || '', 10) || 0,
    bold: params.get('bold') === '1',
    italic: params.get('italic') === '1',
    lang: params.get('lang') || '',
    var: parseVar(params.get('var') || ''),
    varTouched: params.has('var'),
    feat: params.has('feat') ? splitList(params.get('feat') || '') : null,
    featTouched: params.has('feat'),
    q: params.get('q') || '',
    filter: filters.includes(params.get('filter')) ? params.get('filter') : 'all',
    family: params.get('family') || '',
    saved: params.get('view') === 'saved'
  };
  let job = null;
  let seq = 1;
  const cards = new Map();
  const visible = new Set();
  /* Cards observed whose first intersection report has not come yet. */
  const unseen = new Set();
  let order = [];
  let savedList = [];

  function splitList(s) {
    return s.split(',').map((x) => x.trim()).filter(Boolean);
  }
  function parseVar(s) {
    const out = {};
    for (const part of splitList(s)) {
      const m = /^([A-Za-z0-9 ]{1,4})=(-?[0-9]+(\.[0-9]+)?)$/.exec(part);
      if (m) out[m[1]] = parseFloat(m[2]);
    }
    return out;
  }
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* MARK: Settings -> the query of a card */

  function axisDefault(tag) {
    for (const v of job.defaults.variations || []) if (v.tag === tag) return v.value;
    for (const a of job.axes || []) if (a.tag === tag) return a.default;
    return 0;
  }
  function globalVar() {
    if (!job) return '';
    const axes = job.axes || [];
    const value = (a) => (a.tag in view.var ? view.var[a.tag] : axisDefault(a.tag));
    if (!axes.some((a) => value(a) !== axisDefault(a.tag))) return '';
    return axes.map((a) => a.tag + '=' + number(value(a))).join(',');
  }
  function featValue() {
    if (!job || view.feat === null) return null;
    const defaults = job.defaults.features || [];
    const same = view.feat.length === defaults.length && defaults.every((f) => view.feat.includes(f));
    return same ? null : view.feat.join(',');
  }
  function langValue() {
    const l = view.lang.trim();
    return l && langPattern.test(l) ? l : '';
  }
  /* The settings every card shows, as query pairs (without v, client, seq). */
  function settings(extraVar) {
    const p = [];
    if (view.text) p.push(['text', view.text]);
    if (job && view.size && view.size !== job.defaults.size) p.push(['size', String(view.size)]);
    if (view.bold) p.push(['bold', '1']);
    if (view.italic) p.push(['italic', '1']);
    const l = langValue();
    if (l) p.push(['lang', l]);
    const v = extraVar !== undefined ? extraVar : globalVar();
    if (v) p.push(['var', v]);
    const f = featValue();
    if (f !== null) p.push(['feat', f]);
    return p;
  }
  function query(pairs) {
    return pairs.map((kv) => encodeURIComponent(kv[0]) + '=' + encodeURIComponent(kv[1])).join('&');
  }
  function cardKey(f, extra) {
    return cardKeys(extra)(f);
  }
  /* The key of any family's card for the settings now: the query is built once for all of
     them (a grid of 250 cards asks for 250 keys each time one of them is drawn). */
  function cardKeys(extra) {
    const q = query(settings().concat(extra || []));
    return (f) => '/card/' + encodeURIComponent(f.slug) + '.png?' + (q ? q + '&' : '') + 'v=' + encodeURIComponent(f.v);
  }
  /* A card of the grid is asked for at the edge it is shown at, in device pixels (rounded up to
     32, from 64 to 1080): drawing, sending and decoding a picture 4 to 18 times smaller than
     the 1080 px specimen is most of a keystroke's time, and a grid zoomed out to see every
     family shows its cards at 64 px or so. `render --edge` draws the same. */
  let edge = 0;
  function measureEdge() {
    const box = document.querySelector('li.card:not([hidden]) .pic');
    const w = box ? box.clientWidth : 0;
    if (!w) return false;
    const px = Math.min(1080, Math.max(64, Math.ceil(w * (window.devicePixelRatio || 1) / 32) * 32));
    if (px === edge) return false;
    edge = px;
    return true;
  }
  function gridKeys() {
    if (!edge) measureEdge();
    return cardKeys(edge && edge < 1080 ? [['edge', String(edge)]] : []);
  }
  function withSeq(key, s) {
    return key + '&client=' + client + '&seq=' + s;
  }

  /* MARK: Images: loaded by <img>, shown as they arrive */

  /* Pictures loaded while many cards are being drawn (`drawingMany`) are shown together, every
     0.1 s and as soon as none is left to come, not each in a frame of its own: each frame
     lays out, paints and rasters the grid again, and a tile holding a dozen small cards was
     rastered a dozen times. */
  const revealing = [];
  let revealTimer = 0;
  function reveal(show) {
    if (!drawingMany()) return show();
    revealing.push(show);
    if (revealing.length >= loading.size) return revealAll();
    if (!revealTimer) revealTimer = setTimeout(revealAll, 100);
  }
  function revealAll() {
    if (revealTimer) clearTimeout(revealTimer);
    revealTimer = 0;
    for (const show of revealing.splice(0)) show();
  }

  /* One place an image is shown in: a card, the full-screen view, a partner. The browser's own
     image loader fetches and decodes each picture off the page's thread: a fetch read into a
     blob cost a keystroke 70 ms more on a busy machine. */
  function Pic(box, alt) {
    this.box = box;
    this.alt = alt;
    this.img = null;
    this.key = '';
    this.wanted = '';
    this.ctrl = null;
  }
  Pic.prototype.cancel = function () {
    if (this.ctrl) this.ctrl.abort();
    this.ctrl = null;
    this.wanted = '';
  };
  Pic.prototype.clear = function () {
    this.cancel();
    for (const img of Array.from(this.box.querySelectorAll('img'))) img.remove();
    this.img = null;
    this.key = '';
  };
  /* Loads `key` (a URL without client and seq) for `s`; `done(ok, status)` when settled. */
  Pic.prototype.load = function (key, s, done) {
    if (this.ctrl) this.ctrl.abort();
    const img = new Image();
    const ctrl = {
      aborted: false,
      abort: () => {
        ctrl.aborted = true;
        img.onload = img.onerror = null;
        img.removeAttribute('src');
      }
    };
    this.ctrl = ctrl;
    this.wanted = key;
    const self = this;
    const finish = (ok, status) => {
      if (self.ctrl === ctrl) self.ctrl = null;
      if (done) done(ok, status);
    };
    img.alt = this.alt;
    /* Shown once loaded: the compositor decodes it before the frame that shows it. */
    img.onload = () => reveal(() => {
      if (ctrl.aborted) return;
      self.show(img, key, s);
      finish(true, 200);
    });
    /* An image that fails tells no status: asked again, the server says it (503 when a newer
       request took its place, 4xx for a query it refuses). */
    img.onerror = () => {
      fetch(withSeq(key, s), { credentials: 'same-origin' })
        .then((r) => (ctrl.aborted ? null : finish(false, r.ok ? 0 : r.status)))
        .catch(() => (ctrl.aborted ? null : finish(false, 0)));
    };
    img.src = withSeq(key, s);
  };
  Pic.prototype.show = function (img, key, s) {
    const old = this.img;
    img.dataset.seq = String(s);
    const v = new URLSearchParams(key.split('?')[1] || '').get('v');
    if (v) img.dataset.v = v;
    if (old && old.parentNode === this.box) old.replaceWith(img);
    else this.box.prepend(img);
    this.img = img;
    this.key = key;
    this.wanted = '';
    const ph = this.box.querySelector('.ph');
    if (ph) ph.remove();
  };
  Pic.prototype.mark = function (s) {
    if (this.img) this.img.dataset.seq = String(s);
  };

  /* MARK: Cards */

  function makeCard(f) {
    const li = el('li', 'card');
    li.dataset.slug = f.slug;
    const box = el('div', 'pic');
    const ph = el('div', 'ph');
    ph.setAttribute('aria-hidden', 'true');
    box.append(ph);
    const info = el('div', 'info');
    const name = el('button', 'name');
    name.type = 'button';
    name.setAttribute('dir', 'auto');
    const meta = el('p', 'meta');
    const bi = el('span', 'bi');
    const b = el('span', '', 'B');
    const i = el('span', '', 'I');
    bi.append(b, i);
    const heart = el('button', 'heart');
    heart.type = 'button';
    heart.append(el('span', '', '♡'));
    heart.firstChild.setAttribute('aria-hidden', 'true');
    const when = el('p', 'when');
    when.hidden = true;
    info.append(name, heart, meta, bi, when);
    li.append(box, info);
    const card = { f: f, li: li, pic: new Pic(box, ''), name: name, meta: meta, ph: ph, b: b, i: i, heart: heart, when: when, done: '' };
    name.addEventListener('click', () => openFamily(card.f.slug));
    heart.addEventListener('click', () => toggleSaved(card.f));
    updateCard(card, f);
    return card;
  }
  function updateCard(card, f) {
    card.f = f;
    card.name.textContent = f.name;
    card.ph.textContent = f.name;
    card.pic.alt = 'Specimen of ' + f.name;
    if (card.pic.img) card.pic.img.alt = card.pic.alt;
    /* A family of one face says so on every card, custom or variable or not. */
    const parts = f.bold || f.italic ? [] : ['Regular only'];
    if (f.variable) parts.push('Variable');
    if (f.custom) parts.push('Custom');
    card.meta.replaceChildren();
    card.meta.append(parts.join(' · '));
    /* ⚠ for what fails --strict (the "With warnings" filter); facts about fonts are notes. */
    const warnings = (f.warnings || []).length;
    const notes = (f.notes || []).length;
    if (warnings) {
      if (parts.length) card.meta.append(' · ');
      card.meta.append(el('span', 'warn', '⚠ ' + plural(warnings, 'warning', 'warnings')));
    }
    if (notes) {
      if (parts.length || warnings) card.meta.append(' · ');
      card.meta.append(el('span', 'note', plural(notes, 'note', 'notes')));
    }
    if (!parts.length && !warnings && !notes) card.meta.append(faces(f));
    const flags = (f.saved ? 's' : '') + (f.custom ? 'c' : '') + (f.variable ? 'v' : '') + (warnings ? 'w' : '');
    card.li.dataset.f = flags;
    marks(card.b, f.bold, view.bold, 'Bold');
    marks(card.i, f.italic, view.italic, 'Italic');
    setHeart(card.heart, f);
  }
  function faces(f) {
    const n = (f.faces || []).length;
    if (n > 4) return n + ' faces';
    const have = ['Regular'];
    if (f.bold) have.push('Bold');
    if (f.italic) have.push('Italic');
    return have.join(' · ');
  }
  function marks(e, has, on, what) {
    e.className = (has ? '' : 'no') + (on && has ? ' on' : '');
    e.setAttribute('role', 'img');
    e.title = has ? what + ' face: yes' : 'No ' + what.toLowerCase() + ' face: drawn without it';
    e.setAttribute('aria-label', e.title);
  }
  function setHeart(btn, f) {
    btn.setAttribute('aria-pressed', f.saved ? 'true' : 'false');
    btn.setAttribute('aria-label', (f.saved ? 'Remove ' : 'Save ') + f.name + (f.saved ? ' from favourites' : ' to favourites'));
    btn.title = f.saved ? 'Saved · click to remove' : 'Save to favourites';
    btn.firstChild.textContent = f.saved ? '♥' : '♡';
  }

  /* Requests every visible card that does not show what the settings ask for. */
  function drawVisible() {
    /* Behind the full-screen view no card is seen: they are drawn when it closes. */
    if (current) {
      checkDrawn();
      return;
    }
    const keyOf = gridKeys();
    for (const slug of visible) {
      const card = cards.get(slug);
      if (card && !card.li.hidden) drawCard(card, keyOf);
    }
    checkDrawn();
  }
  function drawCard(card, keyOf) {
    if (!keyOf) keyOf = gridKeys();
    const key = keyOf(card.f);
    if (card.done === key) {
      card.pic.mark(seq);
      api.lastDrawn[card.f.slug] = seq;
      return;
    }
    if (card.pic.wanted === key && card.seq === seq) return;
    card.seq = seq;
    const s = seq;
    delete body.dataset.drawnSeq;
    setBusy(card, true);
    card.pic.load(key, s, (ok, status) => {
      if (card.pic.wanted !== '' && card.pic.wanted !== key) return;
      setBusy(card, false);
      if (ok) {
        card.done = key;
        api.cardsLoaded++;
        /* Still what the settings ask for after later changes that left this card alike. */
        const now = key === gridKeys()(card.f) ? seq : s;
        api.lastDrawn[card.f.slug] = now;
        card.pic.mark(now);
      } else if (status === 503 || status === 0) {
        card.pic.wanted = '';
        if (card.retried !== s && s === seq) {
          card.retried = s;
          setTimeout(() => {
            if (visible.has(card.f.slug) && s === seq && cards.get(card.f.slug) === card) drawCard(card);
          }, 1000);
        }
        return;
      } else {
        card.done = key;
        card.ph.textContent = card.f.name + ' · not drawn (' + status + ')';
      }
      checkDrawnSoon();
    });
  }
  /* Once for the pictures shown together: checking every visible card after each of 250
     cost a page zoomed out to see every family 90 ms of its thread. */
  let checkQueued = false;
  function checkDrawnSoon() {
    if (checkQueued) return;
    checkQueued = true;
    queueMicrotask(() => {
      checkQueued = false;
      checkDrawn();
    });
  }
  /* A card whose picture takes more than .3 s wears a busy bar; its new picture replaces the
     old one in one frame. One timer finds the slow cards: a bar waiting on every card (a
     transition's delay) kept the browser drawing frames for nothing, which cost a keystroke
     more than drawing its cards cost the server. When more than two screens of cards are drawn
     at once (a page zoomed out to see every family) the grid goes without bars. */
  const manyBusy = 24;
  const slowAfter = 300;
  const loading = new Map();
  let slowTimer = 0;
  function setBusy(card, on) {
    if (loading.has(card) === on) return;
    if (on) {
      loading.set(card, performance.now());
      if (!slowTimer) slowTimer = setTimeout(markSlow, slowAfter);
    } else {
      loading.delete(card);
      if (card.li.classList.contains('busy')) card.li.classList.remove('busy');
    }
  }
  function drawingMany() {
    return loading.size > manyBusy;
  }
  function markSlow() {
    slowTimer = 0;
    if (drawingMany()) {
      slowTimer = setTimeout(markSlow, slowAfter);
      return;
    }
    const now = performance.now();
    let next = Infinity;
    for (const [card, since] of loading) {
      if (now - since >= slowAfter) card.li.classList.add('busy');
      else next = Math.min(next, since + slowAfter - now);
    }
    if (next !== Infinity) slowTimer = setTimeout(markSlow, next);
  }
  function checkDrawn() {
    if (current) {
      if (viewerPic.key !== viewerKey()) return;
    } else {
      if (unseen.size) return;
      const keyOf = gridKeys();
      for (const slug of visible) {
        const card = cards.get(slug);
        if (card && !card.li.hidden && card.done !== keyOf(card.f)) return;
      }
    }
    if (body.dataset.drawnSeq !== String(seq)) {
      body.dataset.drawnSeq = String(seq);
      try {
        performance.mark('fonti-drawn-' + seq);
      } catch (e) {
        /* Marks are a help for the benchmark only. */
      }
    }
  }
  /* A window resized or zoomed, or moved to a screen of another pixel ratio, shows cards at
     another edge: the visible ones are asked again. */
  let resized = 0;
  function edgeMayChange() {
    if (resized) clearTimeout(resized);
    resized = setTimeout(() => {
      resized = 0;
      if (measureEdge()) drawVisible();
    }, 150);
  }
  window.addEventListener('resize', edgeMayChange);
  (function watchRatio() {
    const ratio = matchMedia('(resolution: ' + (window.devicePixelRatio || 1) + 'dppx)');
    ratio.addEventListener('change', () => {
      edgeMayChange();
      watchRatio();
    }, { once: true });
  })();
  const observer = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const slug = e.target.dataset.slug;
      unseen.delete(slug);
      if (e.isIntersecting) visible.add(slug);
      else visible.delete(slug);
    }
    drawVisible();
  });

  /* MARK: Families: the grid, search, filters, the Saved view */

  function setFamilies(list) {
    const seen = new Set();
    for (const f of list) {
      seen.add(f.slug);
      const card = cards.get(f.slug);
      if (card) {
        if (card.f.v !== f.v) card.done = '';
        updateCard(card, f);
      } else {
        const c = makeCard(f);
        cards.set(f.slug, c);
        unseen.add(f.slug);
        observer.observe(c.li);
      }
    }
    for (const [slug, card] of cards) {
      if (seen.has(slug)) continue;
      observer.unobserve(card.li);
      card.pic.clear();
      setBusy(card, false);
      card.li.remove();
      cards.delete(slug);
      visible.delete(slug);
      unseen.delete(slug);
    }
    order = list.map((f) => f.slug);
    arrange();
  }
  /* The cards in the view's order: the job's in Browse, most recently saved first in Saved. */
  function arrange() {
    const slugs = view.saved ? savedList.map((s) => s.slug).filter((s) => cards.has(s)) : order;
    let i = 0;
    for (const slug of slugs) {
      const li = cards.get(slug).li;
      if (ui.grid.children[i] !== li) ui.grid.insertBefore(li, ui.grid.children[i] || null);
      i++;
    }
    const dates = new Map(savedList.map((s) => [s.slug, s.savedAt]));
    for (const card of cards.values()) {
      const at = view.saved ? dates.get(card.f.slug) : undefined;
      card.when.hidden = !at;
      if (at) card.when.textContent = 'Saved ' + savedDate(at);
    }
    filter();
  }
  function savedDate(at) {
    const d = new Date(at);
    if (isNaN(d.getTime())) return at;
    return d.toLocaleString(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  }
  function filter() {
    const terms = fold(view.q).split(/\s+/).filter(Boolean);
    const savedSlugs = new Set(savedList.map((s) => s.slug));
    let shown = 0;
    const counts = { all: 0, saved: 0, custom: 0, variable: 0, warnings: 0 };
    for (const [slug, card] of cards) {
      const f = card.f;
      const flags = {
        all: true, saved: f.saved, custom: f.custom, variable: f.variable,
        warnings: (f.warnings || []).length > 0
      };
      for (const k of filters) if (flags[k]) counts[k]++;
      let ok = view.saved ? savedSlugs.has(slug) : flags[view.filter];
      if (ok && terms.length) {
        const name = fold(f.name);
        ok = terms.every((t) => name.includes(t));
      }
      if (card.li.hidden === ok) card.li.hidden = !ok;
      if (ok) shown++;
    }
    for (const k of filters) $('s-n-' + k).textContent = String(counts[k]);
    const total = view.saved ? savedSlugs.size : cards.size;
    ui.count.textContent = shown + ' of ' + plural(total, view.saved ? 'saved family' : 'family', view.saved ? 'saved families' : 'families');
    ui.none.hidden = shown > 0 || !job;
    if (view.saved && !savedSlugs.size) {
      ui.noneText.textContent = 'No family is saved yet: the heart on a card saves it.';
    } else {
      ui.noneText.textContent = 'No family matches the search' + (view.saved ? '.' : ' and filters.');
    }
    ui.savedCount.textContent = String(savedSlugs.size);
    $('s-filters').hidden = view.saved;
    ui.viewTitle.hidden = !view.saved;
    ui.browse.setAttribute('aria-pressed', view.saved ? 'false' : 'true');
    ui.savedView.setAttribute('aria-pressed', view.saved ? 'true' : 'false');
  }

  /* MARK: The URL */

  function syncURL() {
    const p = new URLSearchParams();
    if (token) p.set('token', token);
    for (const kv of current ? settings(viewerVar()) : settings()) p.set(kv[0], kv[1]);
    if (view.lang && !langValue()) p.set('lang', view.lang);
    if (view.q.trim()) p.set('q', view.q);
    if (view.filter !== 'all') p.set('filter', view.filter);
    if (view.saved) p.set('view', 'saved');
    if (current) p.set('family', current.slug);
    const s = p.toString();
    history.replaceState(null, '', location.pathname + (s ? '?' + s : ''));
  }

  /* MARK: Controls */

  let timer = 0;
  let styles = '';
  /* A change to what cards show: a new seq, the visible cards redrawn, soon. */
  function changed() {
    seq++;
    api.seq = seq;
    body.dataset.seq = String(seq);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = 0;
      syncURL();
      if (styles !== String([view.bold, view.italic])) {
        styles = String([view.bold, view.italic]);
        for (const card of cards.values()) {
          marks(card.b, card.f.bold, view.bold, 'Bold');
          marks(card.i, card.f.italic, view.italic, 'Italic');
        }
      }
      drawVisible();
      if (current) drawViewer();
    }, debounce);
  }
  function pressed(btn, on) {
    btn.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  function showControls() {
    ui.text.value = view.text;
    ui.size.value = String(view.size);
    ui.sizeOut.textContent = view.size + ' pt';
    pressed(ui.bold, view.bold);
    pressed(ui.italic, view.italic);
    ui.lang.value = view.lang;
    ui.lang.setAttribute('aria-invalid', view.lang && !langValue() ? 'true' : 'false');
    ui.text.lang = langValue();
    ui.q.value = view.q;
    $('s-filter-' + view.filter).checked = true;
  }
  ui.text.addEventListener('input', () => {
    view.text = ui.text.value;
    changed();
  });
  ui.size.addEventListener('input', () => {
    view.size = parseInt(ui.size.value, 10);
    ui.sizeOut.textContent = view.size + ' pt';
    changed();
  });
  ui.bold.addEventListener('click', () => toggleStyle('bold'));
  ui.italic.addEventListener('click', () => toggleStyle('italic'));
  $('s-v-bold').addEventListener('click', () => toggleStyle('bold'));
  $('s-v-italic').addEventListener('click', () => toggleStyle('italic'));
  function toggleStyle(which) {
    view[which] = !view[which];
    pressed(ui[which], view[which]);
    if (current) viewerToggles();
    changed();
  }
  ui.lang.addEventListener('input', () => {
    const before = langValue();
    view.lang = ui.lang.value;
    ui.lang.setAttribute('aria-invalid', view.lang && !langValue() ? 'true' : 'false');
    ui.text.lang = langValue();
    if (langValue() !== before) changed();
    else syncURL();
  });
  ui.q.addEventListener('input', () => {
    view.q = ui.q.value;
    filter();
    syncURL();
    drawVisible();
  });
  for (const k of filters) {
    $('s-filter-' + k).addEventListener('change', () => {
      view.filter = k;
      filter();
      syncURL();
    });
  }
  function setView(saved) {
    view.saved = saved;
    arrange();
    syncURL();
  }
  ui.browse.addEventListener('click', () => setView(false));
  ui.savedView.addEventListener('click', () => setView(true));
  $('s-reset').addEventListener('click', () => {
    view.q = '';
    view.filter = 'all';
    showControls();
    if (view.saved && !savedList.length) view.saved = false;
    arrange();
    syncURL();
  });

  function slider(a, value, onInput) {
    const wrap = el('div', 'axis');
    const id = 's-axis-' + (onInput.local ? 'v-' : '') + a.tag.trim().replace(/[^A-Za-z0-9]/g, '_');
    const label = el('label', '', a.tag);
    label.htmlFor = id;
    const input = el('input');
    input.type = 'range';
    input.id = id;
    input.min = String(a.min);
    input.max = String(a.max);
    input.step = a.max - a.min > 20 ? '1' : '0.1';
    input.value = String(value);
    input.dataset.tag = a.tag;
    const out = el('output', '', number(value));
    out.htmlFor = id;
    input.addEventListener('input', () => {
      const v = parseFloat(input.value);
      out.textContent = number(v);
      onInput(v);
    });
    wrap.append(label, input, out);
    return wrap;
  }
  /* The server's limits (`/api/state`): the size slider's range, the longest text and
     language tag. A text from the address is cut to the limit, as the field would. */
  function applyLimits(limits) {
    ui.size.min = String(limits.size.min);
    ui.size.max = String(limits.size.max);
    ui.text.maxLength = limits.textLength;
    ui.lang.maxLength = limits.languageTagLength;
    view.text = Array.from(view.text).slice(0, limits.textLength).join('');
  }
  function buildControls() {
    const d = job.defaults;
    /* Until the reader moves them, the axes and features follow the job's defaults. */
    if (!view.varTouched) view.var = {};
    if (!view.featTouched) view.feat = null;
    ui.text.placeholder = d.text || 'Type anything';
    const size = job.limits.size;
    applyLimits(job.limits);
    view.size = Math.min(size.max, Math.max(size.min, view.size || d.size));
    ui.lang.placeholder = d.language || 'en';
    ui.axes.replaceChildren();
    for (const a of job.axes || []) {
      const start = a.tag in view.var ? view.var[a.tag] : axisDefault(a.tag);
      const v = Math.min(a.max, Math.max(a.min, start));
      view.var[a.tag] = v;
      ui.axes.append(slider(a, v, (x) => {
        view.var[a.tag] = x;
        view.varTouched = true;
        changed();
      }));
    }
    ui.axes.hidden = !(job.axes || []).length;
    const features = d.features || [];
    if (view.feat === null) view.feat = features.slice();
    const legend = ui.features.querySelector('legend');
    ui.features.replaceChildren(legend);
    for (const f of features) {
      const chip = el('label', 'chip');
      const box = el('input');
      box.type = 'checkbox';
      box.id = 's-feat-' + f.replace(/[^A-Za-z0-9]/g, '_');
      box.value = f;
      box.checked = view.feat.includes(f);
      box.addEventListener('change', () => {
        view.feat = features.filter((x) => (x === f ? box.checked : view.feat.includes(x)));
        view.featTouched = true;
        changed();
      });
      const off = f.startsWith('-');
      const bare = f.replace(/^[-+]/, '').split('=')[0];
      const name = (job.featureNames || {})[bare];
      chip.append(box, name ? (off ? 'No ' + name.toLowerCase() : name) + ' ' : '', el('code', '', f));
      chip.title = (off ? 'Turns ' + bare + ' off' : 'Turns ' + bare + ' on') + ' (the job\u2019s features)';
      ui.features.append(chip);
    }
    ui.features.hidden = !features.length;
    showControls();
  }

  /* MARK: Favourites */

  function toast(text) {
    ui.toast.textContent = text;
    ui.toast.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => { ui.toast.hidden = true; }, 5000);
  }
  function applySaved(list) {
    savedList = Array.isArray(list) ? list : [];
    const slugs = new Set(savedList.map((s) => s.slug));
    for (const card of cards.values()) {
      const saved = slugs.has(card.f.slug);
      if (card.f.saved !== saved) {
        card.f.saved = saved;
        updateCard(card, card.f);
      }
    }
    if (current) {
      current.saved = slugs.has(current.slug);
      setHeart($('s-v-heart'), current);
    }
    arrange();
  }
  function toggleSaved(f) {
    if (!token) {
      toast('Saving needs this page\u2019s token: open the address serve printed (fonti-batch serve shows it, with ?token=\u2026).');
      return;
    }
    const want = !f.saved;
    fetch('/api/saved', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Fonti-Token': token },
      body: JSON.stringify({ family: f.name, saved: want })
    }).then((r) => {
      if (r.status === 403) throw new Error('This page\u2019s token is not the server\u2019s: open the address serve printed.');
      if (!r.ok) throw new Error('Could not save ' + f.name + ' (' + r.status + ').');
      return r.json();
    }).then((answer) => {
      applySaved(answer.saved);
    }).catch((e) => toast(e.message || String(e)));
  }

  /* MARK: Full screen */

  let current = null;
  let localVar = {};
  /* The face the family view is drawn in, by name ('' : as the B and I toggles say). */
  let localFace = '';
  const viewerPic = new Pic($('s-v-pic'), '');
  let partnerPics = [];
  function familyBySlug(slug) {
    const card = cards.get(slug);
    return card ? card.f : null;
  }
  function viewerVar() {
    const axes = current.axes || [];
    const changed = axes.some((a) => a.tag in localVar);
    if (!changed) return undefined;
    const values = Object.assign({}, view.var);
    for (const a of axes) values[a.tag] = a.tag in localVar ? localVar[a.tag] : (a.tag in values ? values[a.tag] : a.default);
    return Object.keys(values).map((t) => t + '=' + number(values[t])).join(',');
  }
  function viewerQuery(extra) {
    const face = localFace ? [['face', localFace]] : [];
    return query(settings(viewerVar()).concat(face, extra, [['v', current.v]]));
  }
  /* The face picker: every face of the family by name, as the card route takes it. */
  function fillFaces() {
    const names = current.faces || [];
    const select = $('s-v-face');
    const options = [el('option', '', 'As B and I say')];
    options[0].value = '';
    for (const name of names) {
      const o = el('option', '', name);
      o.value = name;
      options.push(o);
    }
    select.replaceChildren(...options);
    if (!names.includes(localFace)) localFace = '';
    select.value = localFace;
    $('s-v-face-count').textContent = names.length === 1 ? '1 face' : names.length + ' faces';
  }
  $('s-v-face').addEventListener('change', () => {
    localFace = $('s-v-face').value;
    changed();
  });
  function viewerToggles() {
    pressed($('s-v-bold'), view.bold);
    pressed($('s-v-italic'), view.italic);
    $('s-v-bold').classList.toggle('missing', !current.bold);
    $('s-v-italic').classList.toggle('missing', !current.italic);
    $('s-v-bold').title = current.bold ? 'Bold' : 'This family has no bold face';
    $('s-v-italic').title = current.italic ? 'Italic' : 'This family has no italic face';
    const missing = [];
    if (!current.bold) missing.push('bold');
    if (!current.italic) missing.push('italic');
    $('s-v-faces').textContent = missing.length ? 'No ' + missing.join(' or ') + ' face in this family: a greyed toggle draws the regular.' : '';
  }
  function viewerKey() {
    return '/card/' + encodeURIComponent(current.slug) + '.png?' + viewerQuery([['scale', '2']]);
  }
  function drawViewer() {
    const f = current;
    const slug = encodeURIComponent(f.slug);
    const key = viewerKey();
    if (viewerPic.key !== key && (viewerPic.wanted !== key || viewerPic.seq !== seq)) {
      viewerPic.seq = seq;
      delete body.dataset.drawnSeq;
      const s = seq;
      viewerPic.load(key, s, (ok, status) => {
        if (ok) checkDrawn();
        else if ((status === 503 || status === 0) && current === f && s === seq && viewerPic.retried !== s) {
          viewerPic.retried = s;
          viewerPic.wanted = '';
          setTimeout(() => { if (current === f && s === seq && viewerPic.key !== viewerKey()) drawViewer(); }, 1000);
        }
      });
    } else if (viewerPic.key === key) {
      viewerPic.mark(seq);
      checkDrawn();
    }
    $('s-v-share').href = '/share/' + slug + '.png?' + viewerQuery([]);
    $('s-v-share').setAttribute('download', f.slug + '.png');
    $('s-v-proofs').href = '/proofs/' + slug + '.pdf';
    for (const p of partnerPics) {
      const pf = familyBySlug(p.slug);
      if (!pf) continue;
      const pkey = cardKey(pf);
      if (p.pic.key !== pkey && p.pic.wanted !== pkey) p.pic.load(pkey, seq);
    }
  }
  function openFamily(slug) {
    const f = familyBySlug(slug);
    if (!f) {
      if (ui.dlg.open) ui.dlg.close();
      return;
    }
    if (!current || current.slug !== f.slug) {
      localVar = {};
      localFace = '';
      /* A link to a family's view carries its own axes: they become its sliders' values. */
      const jobTags = (job.axes || []).map((a) => a.tag);
      for (const a of f.axes || []) {
        if (f.slug === view.family && a.tag in view.var && !jobTags.includes(a.tag)) {
          localVar[a.tag] = view.var[a.tag];
          delete view.var[a.tag];
        }
      }
      viewerPic.clear();
    }
    current = f;
    fillViewer();
    if (!ui.dlg.open) ui.dlg.showModal();
    drawViewer();
    syncURL();
  }
  function fillViewer() {
    const f = current;
    $('s-v-name').textContent = f.name;
    viewerPic.alt = 'Specimen of ' + f.name;
    const kicker = [];
    if (f.custom) kicker.push('Custom');
    kicker.push(f.variable ? 'Variable family' : 'Family');
    $('s-v-kicker').textContent = kicker.join(' · ');
    const meta = [faces(f)];
    for (const a of f.axes || []) meta.push(a.tag + ' ' + number(a.min) + '–' + number(a.max));
    $('s-v-meta').textContent = meta.join(' · ');
    setHeart($('s-v-heart'), f);
    viewerToggles();
    fillFaces();
    const axes = $('s-v-axes');
    axes.replaceChildren();
    const input = (a) => {
      const fn = (x) => {
        localVar[a.tag] = x;
        changed();
      };
      fn.local = true;
      return fn;
    };
    for (const a of f.axes || []) {
      const start = a.tag in localVar ? localVar[a.tag] : (a.tag in view.var ? view.var[a.tag] : a.default);
      axes.append(slider(a, Math.min(a.max, Math.max(a.min, start)), input(a)));
    }
    $('s-v-axes-box').hidden = !(f.axes || []).length;
    const warnings = $('s-v-warnings');
    warnings.replaceChildren();
    for (const w of f.warnings || []) warnings.append(el('li', 'warn', w));
    for (const n of f.notes || []) warnings.append(el('li', 'note', n));
    $('s-v-warnings-box').hidden = !(f.warnings || []).length && !(f.notes || []).length;
    for (const p of partnerPics) p.pic.clear();
    partnerPics = [];
    const partners = $('s-v-partners');
    partners.replaceChildren();
    for (const name of f.partners || []) {
      const pf = Array.from(cards.values()).map((c) => c.f).find((x) => x.name === name);
      const li = el('li');
      if (pf) {
        const btn = el('button');
        btn.type = 'button';
        const box = el('div', 'pic');
        const label = el('span', '', pf.name);
        label.setAttribute('dir', 'auto');
        btn.append(box, label);
        btn.addEventListener('click', () => openFamily(pf.slug));
        li.append(btn);
        partnerPics.push({ slug: pf.slug, pic: new Pic(box, 'Specimen of ' + pf.name) });
      } else {
        li.append(el('span', '', name));
      }
      partners.append(li);
    }
    $('s-v-partners-box').hidden = !(f.partners || []).length;
  }
  $('s-v-axes-reset').addEventListener('click', () => {
    localVar = {};
    fillViewer();
    changed();
  });
  $('s-v-heart').addEventListener('click', () => { if (current) toggleSaved(current); });
  $('s-close').addEventListener('click', () => ui.dlg.close());
  ui.dlg.addEventListener('click', (e) => { if (e.target === ui.dlg) ui.dlg.close(); });
  ui.dlg.addEventListener('close', () => {
    const f = current;
    current = null;
    viewerPic.clear();
    for (const p of partnerPics) p.pic.clear();
    partnerPics = [];
    syncURL();
    const card = f && cards.get(f.slug);
    if (card) card.name.focus();
    drawVisible();
  });
  function step(d) {
    if (!current) return;
    const list = Array.from(ui.grid.children).filter((li) => !li.hidden).map((li) => li.dataset.slug);
    const i = list.indexOf(current.slug);
    const j = i + d;
    if (j >= 0 && j < list.length) openFamily(list[j]);
  }
  $('s-prev').addEventListener('click', () => step(-1));
  $('s-next').addEventListener('click', () => step(1));
  document.addEventListener('keydown', (e) => {
    const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
    if (e.key === '/' && !typing && !ui.dlg.open) {
      e.preventDefault();
      ui.q.focus();
    }
    if (ui.dlg.open && !typing && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      e.preventDefault();
      step(e.key === 'ArrowLeft' ? -1 : 1);
    }
  });

  /* MARK: The job's state, live */

  function showErrors(errors) {
    ui.errorsList.replaceChildren();
    for (const e of errors || []) {
      ui.errorsList.append(el('li', '', e.text || (e.file + ':' + e.line + ':' + e.column + ': error: ' + e.message)));
    }
    ui.errors.hidden = !(errors || []).length;
  }
  function applyState(s, all) {
    const first = !job;
    const before = job ? JSON.stringify([job.defaults, job.axes, job.limits]) : '';
    job = s;
    api.generation = s.generation;
    body.dataset.generation = String(s.generation);
    if (s.defaults && s.defaults.theme) document.documentElement.dataset.theme = s.defaults.theme === 'cream' ? 'cream' : 'ink';
    if (s.title) {
      ui.title.textContent = s.title;
      document.title = s.title + ' · fonti-batch serve';
    }
    ui.sub.textContent = plural(s.families.length, 'family', 'families') + ' · ' + (s.job || '') + ' · generation ' + s.generation;
    showErrors(s.errors);
    if (first || before !== JSON.stringify([s.defaults, s.axes, s.limits])) buildControls();
    if (all) for (const card of cards.values()) card.done = '';
    setFamilies(s.families);
    applySaved(s.saved);
    if (first) {
      if (view.family) openFamily(view.family);
      syncURL();
      api.ready = true;
      body.dataset.ready = '1';
    } else if (current) {
      const f = familyBySlug(current.slug);
      if (!f) ui.dlg.close();
      else {
        const v = current.v;
        current = f;
        fillViewer();
        if (v !== f.v || all) viewerPic.key = '';
        drawViewer();
      }
    }
    drawVisible();
  }
  let fetching = false;
  let again = false;
  let againAll = false;
  function loadState(all) {
    againAll = againAll || !!all;
    if (fetching) {
      again = true;
      return;
    }
    fetching = true;
    const wantAll = againAll;
    againAll = false;
    fetch('/api/state', { cache: 'no-store' })
      .then((r) => {
        if (!r.ok) throw new Error('state ' + r.status);
        return r.json();
      })
      .then((s) => applyState(s, wantAll))
      .catch(() => {
        ui.sub.textContent = 'The server does not answer: is fonti-batch serve still running?';
      })
      .finally(() => {
        fetching = false;
        if (again) {
          again = false;
          loadState(false);
        }
      });
  }
  function live(state, text) {
    ui.live.dataset.live = state;
    ui.liveText.textContent = text;
  }
  function listen() {
    const events = new EventSource('/events');
    let opened = false;
    events.addEventListener('open', () => {
      live('open', 'Live');
      if (opened) loadState(true);
      opened = true;
    });
    events.addEventListener('error', () => {
      live(events.readyState === EventSource.CLOSED ? 'closed' : 'connecting', events.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting…');
    });
    events.addEventListener('state', (e) => {
      let d = {};
      try {
        d = JSON.parse(e.data);
      } catch (x) {
        d = {};
      }
      loadState(!!d.all);
    });
    events.addEventListener('saved', (e) => {
      try {
        applySaved(JSON.parse(e.data).saved);
      } catch (x) {
        loadState(false);
      }
    });
  }

  body.dataset.seq = String(seq);
  api.seq = seq;
  listen();
  loadState(false);
})();

package html

// stepScript walks each timeline event by event: it adds, under each
// picture, a play button and a step button and a line saying which event
// is shown; marks after the current one are dimmed, and each cycle arrow
// (and its label) appears, highlighted, when its later event is reached.
// It only reads and sets classes on the page's own elements: no request,
// no storage. Without it (scripts off, or a page that embeds the
// fragment) the picture is drawn whole, as it is at the end of the walk.
const stepScript = `document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('.conc-report figure').forEach(function (fig) {
    var svg = fig.querySelector('svg.timeline');
    if (!svg) return;
    var marks = Array.prototype.slice.call(svg.querySelectorAll('[data-event]'));
    marks.sort(function (a, b) { return a.dataset.event - b.dataset.event; });
    var arrows = svg.querySelectorAll('[data-edge], [data-label]');
    var bar = document.createElement('div');
    bar.className = 'stepper';
    bar.innerHTML = '<button type="button" class="play">▶ play</button> <button type="button" class="step">step ›</button> <span class="now"></span>';
    fig.insertBefore(bar, fig.querySelector('figcaption'));
    var at = marks.length, timer = null, now = bar.querySelector('.now');
    function show(k) {
      at = k;
      // k is -1 before the first event (all dimmed), marks.length past the last.
      var cur = k < 0 ? -Infinity : k < marks.length ? +marks[k].dataset.event : Infinity;
      marks.forEach(function (m, i) {
        m.classList.toggle('future', i > k);
        m.classList.toggle('current', i === k);
      });
      arrows.forEach(function (a) {
        var ends = (a.dataset.edge || a.dataset.label).split('-');
        a.classList.toggle('future', +ends[1] > cur);
        a.classList.toggle('fresh', +ends[1] === cur);
      });
      now.textContent = k >= 0 && k < marks.length ? 'event ' + (k + 1) + ' of ' + marks.length + ': ' + marks[k].querySelector('title').textContent : '';
    }
    function step() {
      if (at >= marks.length - 1) { stop(); show(marks.length); return; }
      show(at + 1);
    }
    function stop() { clearInterval(timer); timer = null; bar.querySelector('.play').textContent = '▶ play'; }
    bar.querySelector('.step').addEventListener('click', function () {
      stop();
      if (at >= marks.length) show(-1);
      step();
    });
    bar.querySelector('.play').addEventListener('click', function () {
      if (timer) { stop(); return; }
      if (at >= marks.length - 1) show(-1);
      this.textContent = '❚❚ pause';
      step();
      timer = setInterval(step, 700);
    });
  });
});
`

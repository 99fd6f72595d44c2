// tracelake report page: reads the JSON block #report-data and draws with Apache ECharts (inlined above).
// Every name from the traces is put on screen with textContent, or through ECharts, whose tooltips here are
// built with echarts.format.encodeHTML: no trace text is ever parsed as HTML.
// When every chart has rendered, <body data-charts-ready="N"> is set (the tests wait for it).
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var root = document.getElementById('report');
  var enc = echarts.format.encodeHTML;
  var charts = [];
  var spanHeight = 0.7; // of a lane; thinner over a band's busy shade

  // One colour per category on every chart of a page: a name (an activity class, a collective kind, a kernel category,
  // a series such as "reference") gets a colour the first time a chart asks for it and keeps it on every other chart,
  // and no two categories of a page share one. Activity classes have fixed colours, the same on every page, and the
  // comparison's time split (compute_ms, exposed_comm_ms, exposed_copy_ms: those classes' time) takes theirs.
  var FIXED_COLOR = Object.create(null);
  [['compute', '#4e79a7'], ['comm', '#e15759'], ['memcpy', '#59a14f'], ['memset', '#76b7b2'], ['sync', '#bab0ac'],
    ['band busy', '#5a6472'], ['compute_ms', '#4e79a7'], ['exposed_comm_ms', '#e15759'], ['exposed_copy_ms', '#59a14f'],
    ['idle_ms', '#dddddd']].forEach(function (c) { FIXED_COLOR[c[0]] = c[1]; });
  // (none close to a fixed one: no second red, blue, green or grey)
  var FREE_COLORS = ['#f28e2b', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#17becf', '#bcbd22', '#8c564b',
    '#9467bd', '#e377c2', '#ffbb78', '#c5b0d5', '#c49c94', '#f7b6d2', '#dbdb8d', '#9edae5', '#393b79', '#637939'];
  var assignedColor = Object.create(null);
  var nextColor = 0;
  function colorOf(name) {
    var key = String(name);
    if (key in FIXED_COLOR) return FIXED_COLOR[key];
    if (!(key in assignedColor)) {
      var i = nextColor++;
      // past the palette, hues a golden angle apart: still one distinct colour per name
      assignedColor[key] = i < FREE_COLORS.length ? FREE_COLORS[i] : 'hsl(' + Math.round((i * 137.508) % 360) + ', 55%, 50%)';
    }
    return assignedColor[key];
  }

  // Every legend is one scrolling line at the top of its chart, above the plot (grid tops leave it room), and no chart
  // has an ECharts title (headings are HTML above the chart): a legend cannot wrap onto a title or the plot.
  function legendLine() {
    return { type: 'scroll', top: 0, left: 10, right: 10 };
  }

  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }

  function section(title, note) {
    var s = el('section');
    // an id from the title, so a finding can link to the section that shows its evidence
    s.id = 'section-' + title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    s.appendChild(el('h2', title));
    if (note) s.appendChild(el('p', note, 'note'));
    root.appendChild(s);
    return s;
  }

  function table(parent, headers, rows, numericCols) {
    var t = el('table');
    var tr = el('tr');
    headers.forEach(function (h) { tr.appendChild(el('th', h)); });
    var thead = el('thead');
    thead.appendChild(tr);
    t.appendChild(thead);
    var tb = el('tbody');
    rows.forEach(function (r) {
      var row = el('tr');
      r.forEach(function (c, i) {
        var cls = numericCols && numericCols.indexOf(i) >= 0 ? 'num' : (i === 0 && r.length === 2 ? 'key' : '');
        row.appendChild(el('td', c === null || c === undefined ? '-' : c, cls));
      });
      tb.appendChild(row);
    });
    t.appendChild(tb);
    parent.appendChild(t);
    return t;
  }

  function chart(parent, id, height, option) {
    var div = el('div', null, 'chart');
    div.id = id;
    div.style.height = height + 'px';
    parent.appendChild(div);
    var c = echarts.init(div, null, { renderer: 'svg' });
    option.animation = false;
    // each named series in its category's colour (set on the series, so a legend shows the same one)
    (option.series || []).forEach(function (se) {
      if (se.name === undefined || (se.itemStyle && se.itemStyle.color)) return;
      se.itemStyle = se.itemStyle || {};
      se.itemStyle.color = colorOf(se.name);
      if (se.type === 'line') se.lineStyle = { color: se.itemStyle.color };
    });
    charts.push({ chart: c, option: option, id: id });
    return c;
  }

  function empty(parent, text) {
    parent.appendChild(el('p', text, 'empty'));
  }

  // a count and its noun, singular for one: "1 rank", "2 ranks"
  function count(n, noun) {
    return n.toLocaleString('en-US') + ' ' + (n === 1 ? noun : noun + 's');
  }

  // v rounded up to two significant digits (14,728.5 → 15,000; 1,100 stays), for an axis end with a round label
  function niceCeil(v) {
    if (!(v > 0)) return v;
    var step = Math.pow(10, Math.floor(Math.log10(v)) - 1);
    return Math.ceil(v / step - 1e-9) * step;
  }

  // whether any series of byKey has a value to draw
  function anyValue(keys, byKey) {
    return keys.some(function (k) { return byKey[k].some(function (v) { return v !== null && v !== undefined; }); });
  }

  function fmt(v, digits) {
    if (v === null || v === undefined) return '-';
    if (typeof v !== 'number') return String(v);
    if (Math.abs(v) >= 1000) return v.toLocaleString('en-US', { maximumFractionDigits: 1 });
    return Number(v.toPrecision(digits || 4)).toString();
  }

  function bytes(v) {
    if (v === null || v === undefined) return '-';
    var u = ['B', 'kB', 'MB', 'GB', 'TB'];
    var i = 0;
    while (Math.abs(v) >= 1000 && i < u.length - 1) { v /= 1000; i++; }
    return (i === 0 ? v : Number(v.toPrecision(3))) + ' ' + u[i];
  }

  // the power of 10 at or above the largest value of every series (log axes)
  function logCeil(keys, byKey) {
    var max = 1;
    keys.forEach(function (k) { byKey[k].forEach(function (v) { if (v !== null && v > max) max = v; }); });
    return Math.pow(10, Math.ceil(Math.log10(max)));
  }

  function tooltipRows(title, rows) {
    return '<b>' + enc(title) + '</b><br>' + rows.map(function (r) {
      return enc(r[0]) + ': ' + enc(r[1]);
    }).join('<br>');
  }

  // ---------------------------------------------------------------- workload page
  function workloadPage() {
    var sub = el('p', 'run ' + (data.runId || '-'), 'note');
    root.appendChild(sub);

    // what to act on first: each finding links to the section that shows its evidence
    if (data.findings && data.findings.length) {
      var fs = section('Findings');
      var list = el('ul');
      data.findings.forEach(function (f) {
        var li = el('li');
        li.appendChild(el('b', '[' + f.severity + '] ' + f.rule + (f.rank === null ? '' : ' (rank ' + f.rank + ')') + ': '));
        li.appendChild(document.createTextNode(f.message + ' '));
        var a = el('a', 'evidence');
        a.href = '#' + f.anchor;
        a.title = f.evidence || '';
        li.appendChild(a);
        list.appendChild(li);
      });
      fs.appendChild(list);
    }

    var top = section('Summary');
    var grid = el('div', null, 'twocol');
    top.appendChild(grid);
    var left = el('div');
    var right = el('div');
    grid.appendChild(left);
    grid.appendChild(right);
    left.appendChild(el('h3', 'Workload card'));
    table(left, ['fact', 'value'], data.card);
    var all = el('details');
    all.appendChild(el('summary', 'every card fact'));
    table(all, ['fact', 'value'], data.cardAll);
    left.appendChild(all);
    right.appendChild(el('h3', 'Headline metrics'));
    table(right, ['metric', 'value', 'unit', 'status'], data.headlines.map(function (h) {
      return [h.metric + (h.figure ? '.' + h.figure : ''), h.text, h.unit, h.status];
    }), [1]);

    // 1. timeline of one step
    var tl = data.timeline;
    var s1 = section('Timeline of one step', tl.step === null ? null : tl.bands
      ? 'Step ' + tl.step + ': ' + tl.bands.length + ' bands of ranks (µs from the first start in the step). The grey ' +
        'shade is the share of the band\'s rank-time with GPU activity; on top, the activities of its slowest rank ' +
        '(the one reaching its collectives last)' + (tl.shown < tl.total ? ', its ' + tl.shown + ' longest of the step\'s ' +
        tl.total + ' activities' : '') + '.'
      : 'Step ' + tl.step + ': GPU activity per rank (µs from the first start in the step)' +
        (tl.shown < tl.total ? '; the first ' + tl.shown + ' of ' + tl.total + ' activities' : '') + '.');
    if (tl.shown === 0) {
      empty(s1, 'No step with GPU activity on every rank.');
    } else {
      var series = Object.keys(tl.byClass).map(function (cls) {
        return {
          type: 'custom', name: cls, renderItem: renderSpan, encode: { x: [1, 2], y: 0 },
          itemStyle: { color: colorOf(cls) }, data: tl.byClass[cls], z: 3
        };
      });
      if (tl.bands) {
        spanHeight = 0.45;
        series.unshift({
          type: 'custom', name: 'band busy', renderItem: renderHeat, encode: { x: [1, 2], y: 0 },
          itemStyle: { color: colorOf('band busy') }, data: tl.heat, z: 1, silent: true
        });
      }
      chart(s1, 'chart-timeline', Math.max(220, 60 + tl.lanes.length * (tl.bands ? 18 : 26)), {
        tooltip: {
          formatter: function (p) {
            var v = p.value;
            if (p.seriesName === 'band busy') {
              return tooltipRows(tl.lanes[v[0]], [['busy', fmt(100 * v[3], 3) + '%'], ['from', fmt(v[1]) + ' µs']]);
            }
            return tooltipRows(tl.names[v[3]], [['class', p.seriesName], ['category', tl.categories[v[4]]],
              ['lane', tl.lanes[v[0]]], ['start', fmt(v[1]) + ' µs'], ['duration', fmt(v[2]) + ' µs']]);
          }
        },
        legend: legendLine(),
        grid: { left: tl.bands ? 190 : 130, right: 30, top: 36, bottom: 40 },
        // to the last activity's end: a span is drawn from its start, and the axis left to itself stops at the
        // largest start
        xAxis: { type: 'value', name: 'µs', nameLocation: 'end', min: 0, max: niceCeil(tl.endUs), scale: false },
        yAxis: { type: 'category', data: tl.lanes, inverse: true, axisLabel: { fontSize: 11 } },
        dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter' }],
        series: series
      });
    }

    // 2. overlap per step
    var ov = data.overlap;
    var s2 = section('Communication / computation overlap per step',
      'Mean over ranks: communication time hidden under compute (overlap) and exposed; overlap ÷ communication on the right axis.');
    if (ov.steps.length === 0) {
      empty(s2, 'No per-step overlap rows.');
    } else {
      chart(s2, 'chart-overlap', 300, {
        tooltip: { trigger: 'axis' },
        legend: legendLine(),
        grid: { left: 70, right: 70, top: 50, bottom: 40 },
        xAxis: { type: 'category', name: 'step', data: ov.steps.map(String) },
        yAxis: [{ type: 'value', name: 'ms' }, { type: 'value', name: 'ratio', min: 0, max: 1 }],
        series: [
          { type: 'bar', name: 'overlapped comm ms', stack: 'comm', data: ov.overlapMs },
          { type: 'bar', name: 'exposed comm ms', stack: 'comm', data: ov.exposedMs },
          { type: 'line', name: 'overlap ÷ comm', yAxisIndex: 1, data: ov.ratio }
        ]
      });
    }

    // 3, 4. bytes and busbw by kind and size
    var cm = data.comm;
    var s3 = section('Communication by collective kind and message size',
      'Power-of-2 size buckets of S (nccl-tests convention). Bytes summed over every rank; bus bandwidth is the median over kernels (GB/s = 1e9 B/s).');
    if (cm.kinds.length === 0) {
      empty(s3, 'No communication activity.');
    } else {
      var wf = data.waitFree;
      if (wf && wf.rows.length > 0) {
        table(s3, ['kind', 'busbw GB/s (median)', 'wait-free busbw GB/s (median)', 'wait-free p10', 'wait-free p90', 'note'],
          wf.rows.map(function (r) { return [r[0], fmt(r[1]), fmt(r[2]), fmt(r[3]), fmt(r[4]), r[5] || '']; }), [1, 2, 3, 4]);
        s3.appendChild(el('p', wf.why + (wf.waitMs === null ? '' : ' Ranks waited ' + fmt(wf.waitMs) + ' ms in all (collective_wait).'), 'note wait-free-why'));
      }
      var sized = anyValue(cm.kinds, cm.bytes);
      var timed = anyValue(cm.kinds, cm.busbw);
      var calls = 0;
      cm.kinds.forEach(function (k) { cm.calls[k].forEach(function (n) { calls += n; }); });
      if (!sized && !timed) {
        empty(s3, 'None of the ' + count(calls, 'communication kernel') + ' (' + cm.kinds.join(', ') + ') carries a ' +
          'message size, so there are no bytes or bus bandwidths by size to draw.');
      } else if (!sized) {
        empty(s3, 'No communication kernel carries a message size: no bytes by size to draw.');
      }
    }
    if (cm.kinds.length > 0 && anyValue(cm.kinds, cm.bytes)) {
      s3.appendChild(el('h3', 'Bytes by kind and message size'));
      chart(s3, 'chart-bytes', 300, {
        tooltip: {
          trigger: 'item',
          formatter: function (p) {
            return tooltipRows(p.seriesName + ' · ' + p.name, [['bytes', bytes(p.value)], ['calls', cm.calls[p.seriesName][p.dataIndex]]]);
          }
        },
        legend: legendLine(),
        grid: { left: 80, right: 30, top: 50, bottom: 40 },
        xAxis: { type: 'category', name: 'size', data: cm.buckets },
        yAxis: { type: 'log', name: 'bytes', min: 1, max: logCeil(cm.kinds, cm.bytes), axisLabel: { formatter: bytes } },
        series: cm.kinds.map(function (k) { return { type: 'bar', name: k, data: cm.bytes[k] }; })
      });
    }
    if (cm.kinds.length > 0 && anyValue(cm.kinds, cm.bytes) && !anyValue(cm.kinds, cm.busbw)) {
      empty(s3, 'No sized communication kernel has a duration above 0: no bus bandwidth by size to draw.');
    }
    if (cm.kinds.length > 0 && anyValue(cm.kinds, cm.busbw)) {
      s3.appendChild(el('h3', 'Bus bandwidth (median) by kind and message size'));
      chart(s3, 'chart-busbw', 300, {
        tooltip: {
          trigger: 'item',
          formatter: function (p) {
            return tooltipRows(p.seriesName + ' · ' + p.name, [['busbw', fmt(p.value) + ' GB/s']]);
          }
        },
        legend: legendLine(),
        grid: { left: 80, right: 30, top: 50, bottom: 40 },
        xAxis: { type: 'category', name: 'size', data: cm.buckets },
        yAxis: { type: 'log', name: 'GB/s', axisLabel: { formatter: powerOfTen } },
        series: cm.kinds.map(function (k) {
          return { type: 'line', name: k, data: cm.busbw[k], connectNulls: true, symbolSize: 9 };
        })
      });
    }

    // 5. lag heat map
    var lag = data.lag;
    var s5 = section('Arrival lag: rank × collective',
      'Each cell: the rank\'s start minus the first start of that collective instance (µs), instances in time order' +
      (lag.instances.length < lag.total ? ' (the first ' + lag.instances.length + ' of ' + lag.total + ')' : '') + '.');
    if (lag.cells.length === 0) {
      empty(s5, 'No collective matched across ranks.');
    } else {
      var maxLag = 0;
      lag.cells.forEach(function (c) { if (c[2] > maxLag) maxLag = c[2]; });
      chart(s5, 'chart-lag', Math.max(230, 120 + lag.ranks.length * 30), {
        tooltip: {
          formatter: function (p) {
            return tooltipRows(lag.instances[p.value[0]], [['rank', lag.ranks[p.value[1]]], ['start offset', fmt(p.value[2]) + ' µs']]);
          }
        },
        grid: { left: 70, right: 110, top: 20, bottom: 90 },
        xAxis: { type: 'category', data: lag.instances, axisLabel: { rotate: 45, fontSize: 10 }, splitArea: { show: true } },
        yAxis: { type: 'category', data: lag.ranks.map(function (r) { return 'rank ' + r; }), inverse: true, splitArea: { show: true } },
        visualMap: {
          min: 0, max: maxLag || 1, calculable: true, orient: 'vertical', right: 10, top: 'middle', itemHeight: 120,
          text: [fmt(maxLag || 1) + ' µs', '0'], inRange: { color: ['#f7fbff', '#6baed6', '#08306b'] }
        },
        series: [{ type: 'heatmap', data: lag.cells }]
      });
    }

    // 6. stragglers
    var st = data.stragglers;
    var s6 = section('Stragglers', 'Share of the ' + count(st.instances, 'matched collective instance') +
      ' in which each rank started last.');
    if (st.note) {
      empty(s6, st.note); // every rank started together: a tie names no rank "last"
    } else if (st.ranks.length === 0) {
      empty(s6, 'No collective instances.');
    } else {
      chart(s6, 'chart-stragglers', 240, {
        tooltip: { trigger: 'axis' },
        grid: { left: 70, right: 30, top: 20, bottom: 40 },
        xAxis: { type: 'category', name: 'rank', data: st.ranks.map(String) },
        yAxis: { type: 'value', name: 'share', min: 0, max: 1 },
        series: [{ type: 'bar', name: 'last-arrival share', data: st.share }]
      });
    }

    // 7. kernel categories
    var kn = data.kernels;
    var s7 = section('Kernel time by category', 'Σ duration of GPU activity per rank and kernel category (ms).');
    var cats = Object.keys(kn.ms);
    if (cats.length === 0) {
      empty(s7, 'No GPU activity.');
    } else {
      chart(s7, 'chart-kernels', Math.max(220, 90 + kn.ranks.length * 32), {
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
        legend: legendLine(),
        grid: { left: 70, right: 30, top: 40, bottom: 40 },
        xAxis: { type: 'value', name: 'ms' },
        yAxis: { type: 'category', data: kn.ranks.map(function (r) { return 'rank ' + r; }), inverse: true },
        series: cats.map(function (c) { return { type: 'bar', name: c, stack: 'k', data: kn.ms[c] }; })
      });
      s7.appendChild(el('h3', 'Top kernels by time (all ranks)'));
      table(s7, ['ms', 'count', 'category', 'kernel'], data.topKernels.map(function (k) {
        return [fmt(k.ms), k.count, k.category, k.name];
      }), [0, 1]);
    }

    // 8. memory
    var mem = data.memory;
    var s8 = section('Memory over time', mem.note);
    if (mem.series.length === 0) {
      empty(s8, 'No memory snapshot for this workload.');
    } else {
      chart(s8, 'chart-memory', 300, {
        tooltip: { trigger: 'axis' },
        legend: legendLine(),
        grid: { left: 90, right: 30, top: 50, bottom: 40 },
        xAxis: { type: 'value', name: 'time' },
        yAxis: { type: 'value', name: 'bytes', axisLabel: { formatter: bytes } },
        series: mem.series.map(function (s) {
          return { type: 'line', name: 'device ' + s.device, data: s.points, showSymbol: false, step: 'end' };
        })
      });
    }

    // 9. hang (NCCL Flight Recorder)
    var hang = data.hang;
    var sh = section('Hang (NCCL Flight Recorder)', hang.note);
    if (hang.rows.length > 0) {
      table(sh, ['root', 'group', 'description', 'seq', 'op', 'size', 'dtype', 'missing ranks', 'held by'],
        hang.rows.map(function (r) {
          return [r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7].join(', '), r[8].join(', ')];
        }), [3]);
    }
    if (hang.ranks.length > 0) {
      sh.appendChild(el('p', 'Last enqueued / completed collective per rank and process group (pg_status).', 'note'));
      var byCell = {};
      hang.cells.forEach(function (c) { byCell[c[0] + ':' + c[1]] = c; });
      table(sh, ['rank'].concat(hang.groups), hang.ranks.map(function (rank, ri) {
        return [rank].concat(hang.groups.map(function (g, gi) {
          var c = byCell[ri + ':' + gi];
          return c ? c[2] + ' / ' + (c[3] === null ? '-' : c[3]) : null;
        }));
      }), hang.groups.map(function (g, gi) { return gi + 1; }));
    }
    if (hang.faultLog) {
      sh.appendChild(el('p', 'Fault log beside the dumps (' + hang.faultLogFile + '):', 'note'));
      sh.appendChild(el('pre', hang.faultLog));
    }

    // 10. MoE all-to-all: imbalance per instance and the rank × rank bytes heat map
    var a2a = data.allToAll;
    var sa = section('MoE all-to-all', 'Per all_to_all instance with split sizes: max ÷ mean of the bytes each rank sent; ' +
      'the matrix sums the bytes each rank sent each rank over those instances (all_to_all_pairs).');
    if (a2a.instances.length === 0) {
      empty(sa, 'No all_to_all carries split sizes (In split size args, or execution-trace all_to_allv splits).');
    } else {
      table(sa, ['instance', 'imbalance'], a2a.instances.map(function (i) { return [i[0], fmt(i[1])]; }), [1]);
      if (a2a.cells.length === 0) {
        empty(sa, a2a.rankCount + ' ranks: too many for a rank × rank matrix.');
      } else {
        var maxBytes = 0;
        a2a.cells.forEach(function (c) { if (c[2] > maxBytes) maxBytes = c[2]; });
        var rankLabels = a2a.ranks.map(function (r) { return 'rank ' + r; });
        chart(sa, 'chart-a2a', Math.max(260, 120 + a2a.ranks.length * 30), {
          tooltip: {
            formatter: function (p) {
              return tooltipRows('rank ' + a2a.ranks[p.value[0]] + ' → rank ' + a2a.ranks[p.value[1]], [['bytes', bytes(p.value[2])]]);
            }
          },
          grid: { left: 70, right: 110, top: 20, bottom: 60 },
          xAxis: { type: 'category', name: 'src', data: rankLabels, splitArea: { show: true } },
          yAxis: { type: 'category', name: 'dst', data: rankLabels, inverse: true, splitArea: { show: true } },
          visualMap: {
            min: 0, max: maxBytes || 1, calculable: true, orient: 'vertical', right: 10, top: 'middle', itemHeight: 120,
            text: [bytes(maxBytes || 1), '0'], inRange: { color: ['#fff5eb', '#fd8d3c', '#7f2704'] }
          },
          series: [{ type: 'heatmap', data: a2a.cells }]
        });
      }
    }

    // 11. Node locality: bytes inside one node vs across nodes, per collective kind (comm_locality)
    var loc = data.locality;
    var sl = section('Node locality', 'Bytes (Σ over ranks of the bus size S) and time of the collectives whose process ' +
      'group lies inside one node vs spans nodes (node = rank ÷ the card\'s count_per_node).');
    if (loc.note) {
      empty(sl, loc.note);
    } else {
      var kinds = loc.lines.filter(function (l) { return l.kind !== 'all kinds'; });
      var anyBytes = kinds.some(function (l) { return (l.intraBytes || 0) + (l.interBytes || 0) > 0; });
      // a chart of zero bytes is two empty axes: say it in one sentence and keep the table (its times are real)
      if (!anyBytes) empty(sl, 'No collective here carries a message size: no bytes to split between inside and across nodes.');
      else chart(sl, 'chart-locality', Math.max(180, 90 + kinds.length * 36), {
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: bytes },
        legend: legendLine(),
        grid: { left: 120, right: 30, top: 36, bottom: 30 },
        xAxis: { type: 'value', axisLabel: { formatter: bytes } },
        yAxis: { type: 'category', data: kinds.map(function (l) { return l.kind; }), inverse: true },
        series: [
          { name: 'intra-node', type: 'bar', stack: 'b', data: kinds.map(function (l) { return l.intraBytes; }) },
          { name: 'inter-node', type: 'bar', stack: 'b', data: kinds.map(function (l) { return l.interBytes; }) }
        ]
      });
      table(sl, ['kind', 'intra-node bytes', 'inter-node bytes', 'inter share', 'intra ms', 'inter ms', 'mode'],
        loc.lines.map(function (l) {
          return [l.kind, bytes(l.intraBytes), bytes(l.interBytes),
            l.interShare === null ? '-' : fmt(100 * l.interShare, 3) + '%', fmt(l.intraMs), fmt(l.interMs), l.mode || '-'];
        }), [1, 2, 3, 4, 5]);
    }

    // 12. AORTA step telemetry (iteration_telemetry)
    var tm = data.telemetry;
    if (tm.steps.length > 0) {
      var stm = section('Step telemetry (AORTA)', count(tm.iterations, 'iteration line') + ' of ' + count(tm.ranks, 'rank') +
        ' (iteration_telemetry): per step, the mean over ranks of each time the log holds (ms; the streams overlap, ' +
        'so they do not add up to the total).');
      chart(stm, 'chart-telemetry', 300, {
        tooltip: { trigger: 'axis' },
        legend: legendLine(),
        grid: { left: 70, right: 30, top: 50, bottom: 40 },
        xAxis: { type: 'category', name: 'step', data: tm.steps.map(String) },
        yAxis: { type: 'value', name: 'ms' },
        series: Object.keys(tm.ms).map(function (k) {
          return { type: 'line', name: k, data: tm.ms[k], connectNulls: true, symbolSize: 8 };
        })
      });
    }

    // 13. PyTorch execution traces (et_nodes)
    var et = data.executionTrace;
    if (et.nodes > 0) {
      var se = section('Execution trace', count(et.nodes, 'node') + ' on ' + count(et.ranks, 'rank') +
        ' (et_nodes), ' + count(et.commNodes, 'communication node') + '.');
      if (et.collectives.length > 0) {
        se.appendChild(el('h3', 'Communication nodes by collective'));
        table(se, ['collective', 'nodes', 'ranks', 'input bytes'], et.collectives.map(function (c) {
          return [c.collective, c.nodes, c.ranks, bytes(c.inBytes)];
        }), [1, 2, 3]);
      }
      se.appendChild(el('h3', 'Most frequent nodes'));
      table(se, ['node', 'nodes'], et.topNames.map(function (n) { return [n.name, n.nodes]; }), [1]);
    }

    var s9 = section('Every workload-scope metric');
    var det = el('details');
    det.appendChild(el('summary', data.metrics.length + ' rows'));
    table(det, ['metric', 'figure', 'key', 'value', 'unit', 'status', 'reason'], data.metrics.map(function (r) {
      return [r.metric, r.figure, r.key, r.text, r.unit, r.status, r.reason];
    }), [3]);
    s9.appendChild(det);
  }

  // a band's busy share in one bin: the full lane height, as dark as the share
  function renderHeat(params, api) {
    var lane = api.value(0);
    var start = api.coord([api.value(1), lane]);
    var end = api.coord([api.value(1) + api.value(2), lane]);
    var h = api.size([0, 1])[1] * 0.9;
    var shape = echarts.graphic.clipRectByRect(
      { x: start[0], y: start[1] - h / 2, width: Math.max(end[0] - start[0], 1), height: h },
      { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
    var style = api.style();
    style.opacity = 0.08 + 0.5 * api.value(3);
    return shape && { type: 'rect', transition: [], shape: shape, style: style };
  }

  function renderSpan(params, api) {
    var lane = api.value(0);
    var start = api.coord([api.value(1), lane]);
    var end = api.coord([api.value(1) + api.value(2), lane]);
    var h = api.size([0, 1])[1] * spanHeight;
    var shape = echarts.graphic.clipRectByRect(
      { x: start[0], y: start[1] - h / 2, width: Math.max(end[0] - start[0], 1), height: h },
      { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
    return shape && { type: 'rect', transition: [], shape: shape, style: api.style() };
  }

  // ---------------------------------------------------------------- comparison page
  var JUDGED_COLOR = { better: '#1e8449', worse: '#c0392b' };

  // The verdict on the two runs' steps (METRICS.md §4): the verdict, the step's change by part as a waterfall,
  // and the kernels whose time per rank-step moved most.
  function compareVerdict(v) {
    var s = section('Verdict: ' + v.verdict.replace('_', ' '), v.step_change === null
      ? 'Too few steps in a run to weigh a change.'
      : 'Median trimmed step ' + (v.step_change > 0 ? '+' : '') + (100 * v.step_change).toFixed(1) + ' % (' +
        (v.delta_ms > 0 ? '+' : '') + fmt(v.delta_ms) + ' ms) against a noise floor of ' + (100 * v.noise).toFixed(1) +
        ' % (at least 2 %, else the runs\' own spread of steps).');
    if (v.delta_ms === null) return;
    var names = Object.keys(v.parts);
    var base = [];
    var up = [];
    var down = [];
    var level = 0;
    names.forEach(function (n) {
      var d = v.parts[n] === null ? 0 : v.parts[n];
      base.push(d >= 0 ? level : level + d);
      up.push(d >= 0 ? d : 0);
      down.push(d < 0 ? -d : 0);
      level += d;
    });
    base.push(Math.min(0, v.delta_ms));
    up.push(v.delta_ms >= 0 ? v.delta_ms : 0);
    down.push(v.delta_ms < 0 ? -v.delta_ms : 0);
    var labels = names.concat(['step']);
    chart(s, 'chart-verdict-waterfall', 220, {
      tooltip: { trigger: 'axis', formatter: function (p) {
        var i = p[0].dataIndex;
        var d = i < names.length ? v.parts[names[i]] : v.delta_ms;
        return tooltipRows(labels[i], [['change ms', d === null ? '-' : fmt(d)]]);
      } },
      grid: { left: 70, right: 20, top: 16, bottom: 30 },
      xAxis: { type: 'category', data: labels },
      yAxis: { type: 'value', name: 'ms', axisLabel: { formatter: function (x) { return fmt(x, 3); } } },
      series: [
        { type: 'bar', stack: 'w', name: 'base', data: base, itemStyle: { color: 'transparent' }, silent: true },
        { type: 'bar', stack: 'w', name: 'slower', data: up, itemStyle: { color: JUDGED_COLOR.worse } },
        { type: 'bar', stack: 'w', name: 'faster', data: down, itemStyle: { color: JUDGED_COLOR.better } }
      ]
    });
    if (v.kernels.length) {
      var k = section('Kernels that moved most', 'Mean time per (rank, step), candidate − reference' +
        (v.by_category ? '; by kernel category: the runs ran on different device models.' : '.'));
      table(k, ['#', 'kernel', 'reference ms', 'candidate ms', 'change ms'], v.kernels.map(function (r) {
        return [r.position, r.kernel, fmt(r.reference_ms), fmt(r.candidate_ms), (r.delta_ms > 0 ? '+' : '') + fmt(r.delta_ms)];
      }), [2, 3, 4]);
    }
  }

  function comparePage() {
    root.appendChild(el('p', 'reference ' + data.reference + ' · candidate ' + data.candidate +
      ' · ratio = candidate ÷ reference', 'note'));
    if (data.verdict) compareVerdict(data.verdict);
    var rows = data.metrics;
    var s1 = section('Ratios', 'Workload-scope metrics both workloads have a value for; bars at 1 mean no change (log scale); ' +
      'green is better and red worse in the figure\'s direction, grey a figure with no better side.');
    var withRatio = rows.filter(function (r) { return r.ratio !== null && r.ratio > 0; });
    if (withRatio.length === 0) {
      empty(s1, 'No metric with a ratio.');
    } else {
      var labels = withRatio.map(function (r) { return r.metric + (r.figure ? '.' + r.figure : '') + (r.key ? ' [' + r.key + ']' : ''); });
      var axis = ratioAxis(withRatio.map(function (r) { return r.ratio; }));
      chart(s1, 'chart-ratios', Math.max(240, 60 + withRatio.length * 18), {
        tooltip: {
          formatter: function (p) {
            var r = withRatio[p.dataIndex];
            return tooltipRows(labels[p.dataIndex], [['reference', fmt(r.reference)], ['candidate', fmt(r.candidate)],
              ['ratio', fmt(r.ratio)], ['unit', r.unit || '']]);
          }
        },
        grid: { left: 330, right: 40, top: 20, bottom: 40 },
        xAxis: { type: 'log', name: 'ratio', min: axis.min, max: axis.max, axisLabel: { formatter: powerOfTen } },
        yAxis: { type: 'category', data: labels, inverse: true, axisLabel: { fontSize: 10 } },
        series: [{
          type: 'bar', data: withRatio.map(function (r) {
            // coloured by better or worse in the figure's direction; grey where a figure has no direction
            return { value: r.ratio, itemStyle: { color: JUDGED_COLOR[r.judgement] || '#999999' } };
          })
        }]
      });
    }
    if (data.breakdown) compareBreakdown(data.breakdown);
    var s2 = section('Every shared workload-scope metric');
    table(s2, ['metric', 'figure', 'key', 'unit', 'reference', 'candidate', 'ratio', 'ratio_delta', 'change'], rows.map(function (r) {
      return [r.metric, r.figure, r.key, r.unit, fmt(r.reference), fmt(r.candidate), fmt(r.ratio),
        r.ratio_delta === undefined ? '' : fmt(r.ratio_delta), r.judgement || ''];
    }), [4, 5, 6, 7]);
    if (data.collapsed) s2.appendChild(el('p', data.collapsed + ' rows with no value on either side are not listed.', 'note'));
  }

  // A tick of a log axis: 0.01 … 1000 as written, beyond that 10 with an exponent (10⁻⁸ reads; 0.00000001 does not).
  function powerOfTen(v) {
    if (v >= 0.001 && v <= 1000) return String(Number(v.toPrecision(6)));
    var e = String(Math.round(Math.log10(v)));
    var sup = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };
    return '10' + e.split('').map(function (c) { return sup[c]; }).join('');
  }

  // The log axis of the ratio chart: the powers of 10 around every ratio it plots (and around 1, where bars start).
  function ratioAxis(ratios) {
    var lo = 1;
    var hi = 1;
    ratios.forEach(function (r) { if (r < lo) lo = r; if (r > hi) hi = r; });
    var min = Math.pow(10, Math.floor(Math.log10(lo)));
    var max = Math.pow(10, Math.ceil(Math.log10(hi)));
    if (min === max) { min /= 10; max *= 10; } // every ratio exactly 1
    if (min === 1) min = 0.1;
    if (max === 1) max = 10;
    return { min: min, max: max };
  }

  // The breakdown that explains the ratios: time split, kernel time, the kernels that moved, collectives.
  function compareBreakdown(b) {
    var runs = ['reference ' + data.reference, 'candidate ' + data.candidate];
    var parts = b.time_split.filter(function (p) { return p.part !== 'span_ms'; });
    var s1 = section('Where the GPU time span went',
      'time_breakdown, mean over ranks: compute, communication not hidden by compute, copies hidden by neither, idle; ' +
      'the four add up to the span from the first GPU activity to the last.');
    if (parts.length === 0) {
      empty(s1, 'Neither run has GPU activity.');
    } else {
      chart(s1, 'chart-time-split', 200, {
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
        legend: legendLine(),
        grid: { left: 260, right: 40, top: 40, bottom: 30 },
        xAxis: { type: 'value', name: 'ms' },
        yAxis: { type: 'category', data: runs, inverse: true },
        series: parts.map(function (p) {
          return { name: p.part, type: 'bar', stack: 'span', data: [p.reference_ms, p.candidate_ms] };
        })
      });
      table(s1, ['part', 'reference (ms)', 'candidate (ms)', 'delta (ms)'], b.time_split.map(function (p) {
        return [p.part, fmt(p.reference_ms), fmt(p.candidate_ms),
          p.reference_ms === null || p.candidate_ms === null ? null : fmt(p.candidate_ms - p.reference_ms)];
      }), [1, 2, 3]);
    }
    var s2 = section('GPU time by kernel category', 'ms per rank (each run\'s total over its ranks).');
    if (b.kernel_categories.length === 0) {
      empty(s2, 'Neither run has GPU activity.');
    } else {
      var cats = b.kernel_categories.map(function (c) { return c.name; });
      chart(s2, 'chart-kernel-categories', Math.max(200, 60 + cats.length * 40), {
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
        legend: legendLine(),
        grid: { left: 140, right: 40, top: 40, bottom: 30 },
        xAxis: { type: 'value', name: 'ms per rank' },
        yAxis: { type: 'category', data: cats, inverse: true },
        series: [
          { name: 'reference', type: 'bar', data: b.kernel_categories.map(function (c) { return c.reference_ms_per_rank; }) },
          { name: 'candidate', type: 'bar', data: b.kernel_categories.map(function (c) { return c.candidate_ms_per_rank; }) }
        ]
      });
    }
    var s3 = section('Kernels whose time moved most', 'ms per rank, largest change first.');
    if (b.kernels_moved_most.length === 0) empty(s3, 'No kernels.');
    else table(s3, ['kernel', 'category', 'reference', 'candidate', 'delta'], b.kernels_moved_most.map(function (k) {
      return [k.name, k.category, fmt(k.reference_ms_per_rank), fmt(k.candidate_ms_per_rank), fmt(k.delta_ms_per_rank)];
    }), [2, 3, 4]);
    var s4 = section('Collectives by kind and size', 'Calls and bytes per rank; median bus bandwidth (GB/s).');
    if (b.collectives.length === 0) empty(s4, 'No communication in either run.');
    else table(s4, ['kind', 'size ≥', 'calls ref', 'calls cand', 'bytes ref', 'bytes cand', 'busbw ref', 'busbw cand'],
      b.collectives.map(function (c) {
        return [c.kind, c.bytes_at_least === null ? 'unsized' : bytes(c.bytes_at_least), fmt(c.reference_calls_per_rank),
          fmt(c.candidate_calls_per_rank), bytes(c.reference_bytes_per_rank), bytes(c.candidate_bytes_per_rank),
          fmt(c.reference_busbw_gbps), fmt(c.candidate_busbw_gbps)];
      }), [1, 2, 3, 4, 5, 6, 7]);
  }

  // ---------------------------------------------------------------- history page
  function historyPage() {
    var runs = data.runs;
    var labels = runs.map(function (r, i) { return '#' + (i + 1); });
    var s1 = section('Runs', runs.length + ' refresh runs read this workload' +
      (data.totalRuns > runs.length ? ' (the last ' + runs.length + ' of ' + data.totalRuns + ')' : '') +
      '; what each found changed in its files and card (workload_changes).');
    if (runs.length === 0) { empty(s1, 'No refresh run has recorded this workload.'); return; }
    table(s1, ['#', 'run', 'started (UTC)', 'step verdict', 'flagged', 'read again because'], runs.map(function (r, i) {
      var flags = data.series.filter(function (s) { return s.flagged[i]; }).length;
      return [labels[i], r.runId, r.started || '-', r.verdict || '-', flags || '',
        (r.changes.length ? r.changes.join('; ') : '-') + (r.hasMetrics ? '' : ' (failed: no metrics)')];
    }), [4]);

    var s2 = section('Headline metrics', 'One line per metric over the runs; a red mark is a run that moved it past the ' +
      'regression threshold (regressions); on iter_time a pin R or I is the step-time verdict of that run against the ' +
      'one before it (regression or improvement likely).');
    if (data.series.length === 0) { empty(s2, 'No headline metric has a value in these runs.'); return; }
    var grid = el('div', null, 'smallmultiples');
    s2.appendChild(grid);
    data.series.forEach(function (s, si) {
      var cell = el('div');
      cell.appendChild(el('h3', s.name + (s.unit ? ' (' + s.unit + ')' : '')));
      grid.appendChild(cell);
      var marks = [];
      s.flagged.forEach(function (f, i) { if (f && s.values[i] !== null) marks.push({ coord: [i, s.values[i]], value: fmt(s.values[i]) }); });
      // the step time carries each run's verdict against the run before it (regression / improvement likely)
      if (s.name.indexOf('iter_time') === 0) {
        runs.forEach(function (r, i) {
          if (s.values[i] === null || (r.verdict !== 'regression_likely' && r.verdict !== 'improvement_likely')) return;
          marks.push({ coord: [i, s.values[i]], value: r.verdict === 'regression_likely' ? 'R' : 'I',
            symbol: 'pin', symbolSize: 26, label: { show: true },
            itemStyle: { color: r.verdict === 'regression_likely' ? '#c0392b' : '#1e8449' } });
        });
      }
      chart(cell, 'chart-history-' + si, 150, {
        tooltip: {
          trigger: 'axis',
          formatter: function (p) {
            var i = p[0].dataIndex;
            var r = runs[i];
            return tooltipRows(labels[i] + ' ' + r.runId, [[s.name, fmt(s.values[i])], ['started', r.started || '-'],
              ['flagged', s.flagged[i] ? 'yes' : 'no'], ['step verdict', r.verdict || '-'],
              ['changed', r.changes.join('; ') || '-']]);
          }
        },
        grid: { left: 60, right: 12, top: 10, bottom: 24 },
        xAxis: { type: 'category', data: labels, boundaryGap: false },
        yAxis: { type: 'value', scale: true, axisLabel: { formatter: function (v) { return fmt(v, 3); } } },
        series: [{
          type: 'line', name: s.name, data: s.values, connectNulls: false, showSymbol: true, symbolSize: 5,
          markPoint: { symbol: 'circle', symbolSize: 11, itemStyle: { color: colorOf('flagged run') }, label: { show: false }, data: marks }
        }]
      });
    });
  }

  // The colour each named series was drawn in, as ECharts holds it after the draw (the tests compare them across a page).
  function seriesColors(c) {
    var out = {};
    (c.chart.getOption().series || []).forEach(function (se) {
      if (se.name !== undefined && se.itemStyle && se.itemStyle.color) out[se.name] = se.itemStyle.color;
    });
    return out;
  }

  // How many of the chart's legend, title and plot area overlap one another, as ECharts laid them out (the tests read
  // it: a legend that wrapped onto the plot or a title is a page a person cannot read).
  function layoutOverlaps(c) {
    var model = c.chart.getModel();
    function rectOf(mainType) {
      var m = model.getComponent(mainType);
      if (!m) return null;
      if (mainType === 'grid') {
        var g = m.coordinateSystem && m.coordinateSystem.getRect();
        return g ? { x: g.x, y: g.y, width: g.width, height: g.height } : null;
      }
      var view = c.chart.getViewOfComponentModel(m);
      if (!view || !view.group) return null;
      var r = view.group.getBoundingRect();
      if (!r || !(r.width > 0) || !(r.height > 0)) return null;
      r = r.clone();
      r.applyTransform(view.group.getLocalTransform());
      return r;
    }
    function overlap(a, b) {
      return a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    }
    var legend = rectOf('legend');
    var title = rectOf('title');
    var grid = rectOf('grid');
    return (overlap(legend, grid) ? 1 : 0) + (overlap(legend, title) ? 1 : 0) + (overlap(title, grid) ? 1 : 0);
  }

  if (data.page === 'compare') comparePage(); else if (data.page === 'history') historyPage(); else workloadPage();

  // Draw every chart; mark the page when each one has finished rendering.
  var pending = charts.length;
  function done() {
    document.body.setAttribute('data-charts-ready', String(charts.length));
  }
  if (pending === 0) done();
  charts.forEach(function (c) {
    var finished = false;
    c.chart.on('finished', function () {
      if (finished) return;
      finished = true;
      c.chart.getDom().setAttribute('data-series-colors', JSON.stringify(seriesColors(c)));
      c.chart.getDom().setAttribute('data-layout-overlaps', String(layoutOverlaps(c)));
      // the drawn extent of a value x axis (the tests check that the timeline reaches its last activity's end)
      try {
        var xAxis = c.chart.getModel().getComponent('xAxis', 0);
        if (xAxis && xAxis.axis && xAxis.axis.type === 'value') {
          c.chart.getDom().setAttribute('data-x-extent', JSON.stringify(xAxis.axis.scale.getExtent()));
        }
      } catch (e) { /* an ECharts without getModel: no attribute, the chart is drawn all the same */ }
      var x = c.chart.getOption().xAxis;
      if (x && x[0] && x[0].type === 'log') c.chart.getDom().setAttribute('data-log-axis', JSON.stringify([x[0].min, x[0].max]));
      c.chart.getDom().setAttribute('data-rendered', 'true');
      pending -= 1;
      if (pending === 0) done();
    });
    c.chart.setOption(c.option);
  });
  window.addEventListener('resize', function () { charts.forEach(function (c) { c.chart.resize(); }); });
})();

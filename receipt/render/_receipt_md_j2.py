# Generated from templates/receipt.md.j2 by jinja2 3.1.6 (receipt.render.markdown.write_precompiled).
# Do not edit: regenerate it.
# fmt: off
# ruff: noqa
TEMPLATE_SHA256 = '83baa67823cc536c9d3ef05e3ef6a173900ffd59f734813bda418652120a08cf'
JINJA2_VERSION = '3.1.6'
from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = None

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_header_comment = resolve('header_comment')
    l_0_title = resolve('title')
    l_0_alert = resolve('alert')
    l_0_verdict = resolve('verdict')
    l_0_counts = resolve('counts')
    l_0_sentences = resolve('sentences')
    l_0_nothing_recognised = resolve('nothing_recognised')
    l_0_shortened = resolve('shortened')
    l_0_graph = resolve('graph')
    l_0_groups = resolve('groups')
    l_0_info = resolve('info')
    l_0_traffic = resolve('traffic')
    l_0_texts = resolve('texts')
    l_0_issues = resolve('issues')
    l_0_surface = resolve('surface')
    l_0_surface_omitted = resolve('surface_omitted')
    l_0_fingerprints = resolve('fingerprints')
    l_0_compared_plain = resolve('compared_plain')
    l_0_compared = resolve('compared')
    l_0_base = resolve('base')
    l_0_head = resolve('head')
    l_0_fail_on = resolve('fail_on')
    l_0_flags = resolve('flags')
    l_0_paths = resolve('paths')
    l_0_exported = resolve('exported')
    l_0_binding = resolve('binding')
    l_0_tool_line = resolve('tool_line')
    l_0_footer_note = resolve('footer_note')
    try:
        t_1 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_2 = environment.filters['md_join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'md_join' found.")
    try:
        t_3 = environment.filters['num']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'num' found.")
    try:
        t_4 = environment.filters['plural']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'plural' found.")
    pass
    if (undefined(name='header_comment') if l_0_header_comment is missing else l_0_header_comment):
        pass
        yield str(environment.finalize((undefined(name='header_comment') if l_0_header_comment is missing else l_0_header_comment)))
        yield '\n'
    yield '## '
    yield str(environment.finalize((undefined(name='title') if l_0_title is missing else l_0_title)))
    yield '\n\n> [!'
    yield str(environment.finalize((undefined(name='alert') if l_0_alert is missing else l_0_alert)))
    yield ']\n> **'
    yield str(environment.finalize((undefined(name='verdict') if l_0_verdict is missing else l_0_verdict)))
    yield '** — '
    yield str(environment.finalize((undefined(name='counts') if l_0_counts is missing else l_0_counts)))
    yield '\n'
    if (undefined(name='sentences') if l_0_sentences is missing else l_0_sentences):
        pass
        yield '>\n'
        for l_1_s in (undefined(name='sentences') if l_0_sentences is missing else l_0_sentences):
            _loop_vars = {}
            pass
            yield '> - '
            yield str(environment.finalize(l_1_s))
            yield '\n'
        l_1_s = missing
    if (undefined(name='nothing_recognised') if l_0_nothing_recognised is missing else l_0_nothing_recognised):
        pass
        yield '>\n> At head: '
        yield str(environment.finalize((undefined(name='nothing_recognised') if l_0_nothing_recognised is missing else l_0_nothing_recognised)))
        yield '.\n'
    if (undefined(name='shortened') if l_0_shortened is missing else l_0_shortened):
        pass
        yield '\nShortened to fit a comment: '
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='shortened') if l_0_shortened is missing else l_0_shortened), 'omitted'))))
        yield ' of '
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='shortened') if l_0_shortened is missing else l_0_shortened), 'total'))))
        yield ' changes are not shown here ('
        yield str(environment.finalize(environment.getattr((undefined(name='shortened') if l_0_shortened is missing else l_0_shortened), 'note')))
        yield ').\n'
    if (undefined(name='graph') if l_0_graph is missing else l_0_graph):
        pass
        yield '\n```mermaid\n'
        for l_1_line in (undefined(name='graph') if l_0_graph is missing else l_0_graph):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_line))
            yield '\n'
        l_1_line = missing
        yield '```\n'
    if (undefined(name='groups') if l_0_groups is missing else l_0_groups):
        pass
        yield '\n### Changes\n'
        for l_1_group in (undefined(name='groups') if l_0_groups is missing else l_0_groups):
            _loop_vars = {}
            pass
            yield '\n#### '
            yield str(environment.finalize(environment.getattr(l_1_group, 'title')))
            yield '\n\n| What | Change | Where |\n| --- | --- | --- |\n'
            for l_2_row in environment.getattr(l_1_group, 'rows'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_row, 'what')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_row, 'change')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_row, 'where')))
                yield ' |\n'
            l_2_row = missing
        l_1_group = missing
    if (undefined(name='info') if l_0_info is missing else l_0_info):
        pass
        yield '\n<details><summary>Info ('
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='info') if l_0_info is missing else l_0_info), 'count'))))
        yield ')</summary>\n'
        for l_1_group in environment.getattr((undefined(name='info') if l_0_info is missing else l_0_info), 'groups'):
            _loop_vars = {}
            pass
            yield '\n#### '
            yield str(environment.finalize(environment.getattr(l_1_group, 'title')))
            yield '\n\n| What | Change | Where |\n| --- | --- | --- |\n'
            for l_2_row in environment.getattr(l_1_group, 'rows'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_row, 'what')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_row, 'change')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_row, 'where')))
                yield ' |\n'
            l_2_row = missing
        l_1_group = missing
        yield '\n</details>\n'
    if (undefined(name='traffic') if l_0_traffic is missing else l_0_traffic):
        pass
        yield '\n### '
        yield str(environment.finalize(environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'title')))
        yield '\n\n'
        yield str(environment.finalize(environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'summary')))
        yield '\n\n'
        if environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'rows'):
            pass
            yield '| What | Change | Recorded traffic |\n| --- | --- | --- |\n'
            for l_1_row in environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'rows'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_1_row, 'what')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_1_row, 'change')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_1_row, 'seen')))
                yield ' |\n'
            l_1_row = missing
        if environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'more'):
            pass
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'more'), 'more change', 'more changes')))
            yield ' seen in recorded traffic (see the JSON receipt).\n'
        if environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'unseen'):
            pass
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='traffic') if l_0_traffic is missing else l_0_traffic), 'unseen'), 'change', 'changes')))
            yield ' to entries no recorded trace exercises.\n'
    if (undefined(name='texts') if l_0_texts is missing else l_0_texts):
        pass
        yield '\n<details><summary>Text the model reads ('
        yield str(environment.finalize(t_1((undefined(name='texts') if l_0_texts is missing else l_0_texts))))
        yield ' changed)</summary>\n'
        for l_1_t in (undefined(name='texts') if l_0_texts is missing else l_0_texts):
            _loop_vars = {}
            pass
            yield '\n'
            yield str(environment.finalize(environment.getattr(l_1_t, 'title')))
            yield ':\n\n'
            yield str(environment.finalize(environment.getattr(l_1_t, 'open')))
            yield '\n'
            for l_2_line in environment.getattr(l_1_t, 'lines'):
                _loop_vars = {}
                pass
                yield str(environment.finalize(l_2_line))
                yield '\n'
            l_2_line = missing
            yield str(environment.finalize(environment.getattr(l_1_t, 'close')))
            yield '\n'
        l_1_t = missing
        yield '\n</details>\n'
    if (undefined(name='issues') if l_0_issues is missing else l_0_issues):
        pass
        yield '\n### Files not analysed\n\n'
        if environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'touched'):
            pass
            yield '**'
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'touched'), 'file this PR touched', 'files this PR touched')))
            yield ' could not be fully analysed: the surface at head may be incomplete.**\n\n'
            for l_1_item in environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'listed'):
                _loop_vars = {}
                pass
                yield '- '
                yield str(environment.finalize(l_1_item))
                yield '\n'
            l_1_item = missing
            if environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'more'):
                pass
                yield '- … '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'more'))))
                yield ' more\n'
        yield '\n'
        if environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'untouched'):
            pass
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'untouched'), 'other file', 'other files')))
            yield ' with unreadable code or unresolved registrations that this PR did not change (not listed). '
        if environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'skipped'):
            pass
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='issues') if l_0_issues is missing else l_0_issues), 'skipped'), 'file', 'files')))
            yield ' skipped (binary, too large, links).'
        yield '\n'
    if (undefined(name='surface') if l_0_surface is missing else l_0_surface):
        pass
        yield '\n<details><summary>Unchanged exported surface at head ('
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='surface') if l_0_surface is missing else l_0_surface), 'count'))))
        yield ')</summary>\n\n| What | Attributes | Where |\n| --- | --- | --- |\n'
        for l_1_row in environment.getattr((undefined(name='surface') if l_0_surface is missing else l_0_surface), 'rows'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(environment.getattr(l_1_row, 'what')))
            yield ' | '
            yield str(environment.finalize(environment.getattr(l_1_row, 'attributes')))
            yield ' | '
            yield str(environment.finalize(environment.getattr(l_1_row, 'where')))
            yield ' |\n'
        l_1_row = missing
        if environment.getattr((undefined(name='surface') if l_0_surface is missing else l_0_surface), 'more'):
            pass
            yield '| … '
            yield str(environment.finalize(t_3(environment.getattr((undefined(name='surface') if l_0_surface is missing else l_0_surface), 'more'))))
            yield ' more entries | | |\n'
        yield '\n</details>\n'
    elif (undefined(name='surface_omitted') if l_0_surface_omitted is missing else l_0_surface_omitted):
        pass
        yield '\nUnchanged exported surface not shown, to fit the comment size limit.\n'
    if (undefined(name='fingerprints') if l_0_fingerprints is missing else l_0_fingerprints):
        pass
        yield '\n<details><summary>Fingerprints (to accept a change in config)</summary>\n\n'
        for l_1_fp in (undefined(name='fingerprints') if l_0_fingerprints is missing else l_0_fingerprints):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(l_1_fp))
            yield '\n'
        l_1_fp = missing
        yield '\n</details>\n'
    yield '\n---\n\nCompared '
    if (not (undefined(name='compared_plain') if l_0_compared_plain is missing else l_0_compared_plain)):
        pass
        yield str(environment.finalize((undefined(name='compared') if l_0_compared is missing else l_0_compared)))
        yield ': '
    yield 'base '
    yield str(environment.finalize(environment.getattr((undefined(name='base') if l_0_base is missing else l_0_base), 'label')))
    yield ' → head '
    yield str(environment.finalize(environment.getattr((undefined(name='head') if l_0_head is missing else l_0_head), 'label')))
    yield ' · fail on '
    yield str(environment.finalize((undefined(name='fail_on') if l_0_fail_on is missing else l_0_fail_on)))
    if (undefined(name='flags') if l_0_flags is missing else l_0_flags):
        pass
        yield ' · flags: '
        yield str(environment.finalize(t_2((undefined(name='flags') if l_0_flags is missing else l_0_flags), ', ')))
    if (undefined(name='paths') if l_0_paths is missing else l_0_paths):
        pass
        yield ' · paths: '
        yield str(environment.finalize(t_2((undefined(name='paths') if l_0_paths is missing else l_0_paths), ', ')))
    yield ' · exported at head: '
    yield str(environment.finalize(t_4(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'agents'), 'agent', 'agents')))
    yield ', '
    yield str(environment.finalize(t_4(environment.getattr((undefined(name='exported') if l_0_exported is missing else l_0_exported), 'tools'), 'tool', 'tools')))
    yield '\n'
    if (undefined(name='binding') if l_0_binding is missing else l_0_binding):
        pass
        yield '\n'
        yield str(environment.finalize((undefined(name='binding') if l_0_binding is missing else l_0_binding)))
        yield '\n'
    yield '\n'
    yield str(environment.finalize((undefined(name='tool_line') if l_0_tool_line is missing else l_0_tool_line)))
    yield '\n'
    if (undefined(name='footer_note') if l_0_footer_note is missing else l_0_footer_note):
        pass
        yield '\n'
        yield str(environment.finalize((undefined(name='footer_note') if l_0_footer_note is missing else l_0_footer_note)))
        yield '\n'

blocks = {}
debug_info = '20=63&21=65&23=68&25=70&26=72&27=76&29=79&30=83&33=86&35=89&37=91&39=94&41=100&44=103&45=106&49=110&52=113&54=117&58=119&59=123&63=131&65=134&66=136&68=140&72=142&73=146&79=155&81=158&83=160&85=162&88=165&89=169&92=176&93=178&95=180&96=182&99=184&101=187&102=189&104=193&106=195&107=197&108=200&110=203&115=207&119=210&120=213&122=215&123=219&125=222&126=225&130=228&133=237&135=240&139=242&140=246&142=253&143=256&147=259&151=262&155=265&156=269&164=274&165=297&167=300&170=303&171=305&173=308'

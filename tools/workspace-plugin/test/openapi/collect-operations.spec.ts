import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectOperations } from '../../src/openapi/collect-operations';
import { loadDocument, OpenApiDocumentError } from '../../src/openapi/load-document';
import { assignToolNames, baseToolName, MAX_TOOL_NAME } from '../../src/openapi/tool-names';

const example = (path: string) => JSON.parse(readFileSync(join(require.resolve('@readme/oas-examples/package.json'), '..', path), 'utf-8'));

describe('tool names from operations', () => {
  it.each([
    ['getPetById', 'get', '/pet/{petId}', 'get_pet_by_id'],
    ['repos/get-content', 'get', '/repos', 'repos_get_content'],
    ['HTTPRequestLog', 'get', '/log', 'http_request_log'],
    [undefined, 'get', '/pet/{petId}', 'get_pet_pet_id'],
  ])('%s (%s %s) → %s', (operationId, method, path, expected) => {
    expect(baseToolName(operationId, method, path)).toBe(expected);
  });

  it('shortens a name over 64 characters by dropping words from its middle, keeping its first and last words', () => {
    // Kubernetes' longest operationId, as the generator snake-cases it (96 characters).
    const long = 'list_rbac_authorization_v1_namespaced_role_binding_for_all_namespaces_with_label_selector_watch';
    const [name] = assignToolNames([{ base: long, method: 'get', path: '/x' }]);
    expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(name).toBe('list_rbac_authorization_v1_namespaces_with_label_selector_watch');
    expect(name).not.toMatch(/[0-9a-f]{8}$/);
    expect(assignToolNames([{ base: long, method: 'get', path: '/x' }])).toEqual([name]);
  });

  it('cuts a name that has no words to drop and adds a stable hash; resolves collisions the same way', () => {
    const long = `x${'y'.repeat(80)}`;
    const names = assignToolNames([
      { base: long, method: 'get', path: '/x' },
      { base: 'list_pets', method: 'get', path: '/pets' },
      { base: 'list_pets', method: 'get', path: '/v2/pets' },
    ]);
    expect(names[0]).toHaveLength(MAX_TOOL_NAME);
    expect(names[0]).toMatch(/^xyyy.*_[0-9a-f]{8}$/);
    expect(names[1]).toBe('list_pets');
    expect(names[2]).toMatch(/^list_pets_[0-9a-f]{8}$/);
    expect(assignToolNames([{ base: long, method: 'get', path: '/x' }])).toEqual([names[0]]);
  });

  it('never names an operation without an operationId a bare method, and puts --prefix first', () => {
    expect(baseToolName(undefined, 'get', '/')).toBe('get_root');
    expect(baseToolName(undefined, 'post', '/')).toBe('post_root');
    expect(baseToolName('getCustomers', 'get', '/v1/customers', 'stripe')).toBe('stripe_get_customers');
    expect(baseToolName(undefined, 'get', '/v1/customers', 'Stripe API')).toBe('stripe_api_get_v1_customers');
  });
});

describe.each(['3.0', '3.1'])('the petstore (OpenAPI %s) as operations', (version) => {
  it('lists every operation in document order, named, annotated and described', async () => {
    const operations = collectOperations((await loadDocument(example(`${version}/json/petstore.json`), 'petstore.json')).document);
    expect(operations.map((op) => op.toolName)).toEqual([
      'update_pet', 'add_pet', 'find_pets_by_status', 'find_pets_by_tags', 'get_pet_by_id', 'update_pet_with_form', 'delete_pet',
      'upload_file', 'get_inventory', 'place_order', 'get_order_by_id', 'delete_order', 'create_user', 'create_users_with_array_input',
      'create_users_with_list_input', 'login_user', 'logout_user', 'get_user_by_name', 'update_user', 'delete_user',
    ]);
    const byName = new Map(operations.map((op) => [op.toolName, op]));
    expect(byName.get('get_pet_by_id')).toMatchObject({
      method: 'get',
      path: '/pet/{petId}',
      annotations: { readOnlyHint: true },
      parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
      successBody: { status: '200', schema: expect.objectContaining({ type: 'object', required: ['name', 'photoUrls'] }) },
    });
    expect(byName.get('delete_pet')?.annotations).toEqual({ destructiveHint: true, idempotentHint: true });
    expect(byName.get('update_pet')?.annotations).toEqual({ idempotentHint: true });
    expect(byName.get('add_pet')).toMatchObject({ annotations: {}, requestBody: { required: true } });
    expect(byName.get('logout_user')?.successBody).toBeUndefined();
  });

  it('leaves out what the filters and x-mcp: false exclude', async () => {
    const document = example(`${version}/json/petstore.json`);
    document.paths['/user/logout'].get['x-mcp'] = false;
    const { document: loaded } = await loadDocument(document, 'petstore.json');
    expect(collectOperations(loaded, { includeTags: ['store'] }).map((op) => op.toolName)).toEqual(['get_inventory', 'place_order', 'get_order_by_id', 'delete_order']);
    expect(collectOperations(loaded, { exclude: ['*User*', '*Users*'] }).some((op) => op.toolName.includes('user'))).toBe(false);
    expect(collectOperations(loaded).map((op) => op.toolName)).not.toContain('logout_user');
  });
});

describe('documents the generator cannot use', () => {
  it('are refused with the parser\'s message, which names the JSON pointer', async () => {
    const broken = { openapi: '3.0.3', info: { title: 'x', version: '1' }, paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/Nope' } } } } } };
    await expect(loadDocument(broken, 'broken.json')).rejects.toThrow(OpenApiDocumentError);
    await expect(loadDocument(broken, 'broken.json')).rejects.toThrow('Missing $ref pointer "#/components/responses/Nope"');
  });

  it('refuses Swagger 2.0, saying to convert it', async () => {
    await expect(loadDocument({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} }, 'old.json')).rejects.toThrow('it is Swagger 2.0; convert it to OpenAPI 3.0 or 3.1 first.');
  });
});

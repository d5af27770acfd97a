import baseConfig from '../../eslint.config.mjs';

export default [...baseConfig, { ignores: ['**/files/**', 'test/fixtures/**'] }];

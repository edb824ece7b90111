import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';

// The boundaries (docs/architecture.md "Layers"): web and server import domain and contract, never each other;
// domain imports nothing of ours; contract imports only domain.
const boundaries = {
  'import-x/no-restricted-paths': [
    'error',
    {
      zones: [
        {
          target: './src/web',
          from: './src/server',
          message: 'The browser must not import server code; share it through src/domain or src/contract.',
        },
        {
          target: './src/server',
          from: './src/web',
          message: 'The server must not import browser code; share it through src/domain or src/contract.',
        },
        {
          target: './src/domain',
          from: ['./src/server', './src/web', './src/contract'],
          message: 'src/domain is pure logic and imports nothing else of ours.',
        },
        { target: './src/contract', from: ['./src/server', './src/web'], message: 'src/contract may import only src/domain.' },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    rules: {
      ...boundaries,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['warn', { allow: ['warn', 'error', 'log'] }],
    },
  },
);
